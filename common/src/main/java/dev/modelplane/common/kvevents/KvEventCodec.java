package dev.modelplane.common.kvevents;

import dev.modelplane.common.kvevents.KvEvent.AllBlocksCleared;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEvent.Unknown;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.List;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;

/**
 * The MessagePack form of a {@link KvEventBatch}, as vLLM writes it: the batch is the array {@code [timestamp,
 * events, data_parallel_rank]} (a map with those keys is read too), each event in one of the {@link EventLayout}s.
 *
 * <p>Writing follows vLLM's encoder exactly, so consumers written for vLLM read it: block hashes are unsigned
 * integers in their shortest form ({@code 0xcf} for values of 2^63 and above, never a negative int64), the timestamp
 * a float64, absent values nil. Reading is lenient where servers differ and strict where input could hurt: events may
 * be arrays or maps, with fields missing at the end or unknown fields added; a hash may be an integer (signed or
 * unsigned) or a byte string (its last eight bytes, as vLLM does when told to send whole digests); an unknown event
 * type becomes {@link Unknown}. Every length is checked against the bytes left before anything is allocated.
 */
public final class KvEventCodec {
  static final String[] STORED_FIELDS = {"block_hashes", "parent_block_hash", "token_ids", "block_size",
      "lora_id", "medium", "lora_name", "extra_keys", "group_idx", "kv_cache_spec_kind",
      "kv_cache_spec_sliding_window"};
  static final String[] REMOVED_FIELDS = {"block_hashes", "medium", "group_idx"};
  private static final String FULL_ATTENTION = "full_attention";

  private KvEventCodec() {
  }

  /** Encodes {@code batch} with each event in {@code layout}. */
  public static byte[] encode(KvEventBatch batch, EventLayout layout) {
    try (MessageBufferPacker p = MessagePack.newDefaultBufferPacker()) {
      p.packArrayHeader(3);
      p.packDouble(batch.timestamp());
      p.packArrayHeader(batch.events().size());
      for (KvEvent e : batch.events()) {
        switch (e) {
          case BlockStored s -> stored(p, s, layout);
          case BlockRemoved r -> removed(p, r, layout);
          case AllBlocksCleared c -> tagOnly(p, "AllBlocksCleared", layout);
          case Unknown u -> throw new IllegalArgumentException("cannot encode an unknown event type " + u.type());
        }
      }
      nullableInt(p, batch.dataParallelRank());
      return p.toByteArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a buffer packer does not fail on I/O
    }
  }

  private static void stored(MessagePacker p, BlockStored s, EventLayout layout) throws IOException {
    List<List<Object>> extra = s.extraKeys();
    if (layout == EventLayout.ARRAY) {
      p.packArrayHeader(1 + STORED_FIELDS.length);
      p.packString("BlockStored");
    } else {
      int omitted = (extra == null ? 1 : 0) + (s.groupIdx() == null ? 2 : 0) + 1;
      p.packMapHeader(1 + STORED_FIELDS.length - omitted);
      p.packString("type");
      p.packString("BlockStored");
    }
    key(p, layout, "block_hashes");
    hashes(p, s.blockHashes());
    key(p, layout, "parent_block_hash");
    if (s.parentBlockHash() == null) {
      p.packNil();
    } else {
      hash(p, s.parentBlockHash());
    }
    key(p, layout, "token_ids");
    p.packArrayHeader(s.tokenIds().length);
    for (int t : s.tokenIds()) {
      p.packLong(Integer.toUnsignedLong(t));
    }
    key(p, layout, "block_size");
    p.packInt(s.blockSize());
    key(p, layout, "lora_id");
    nullableInt(p, s.loraId());
    key(p, layout, "medium");
    nullableString(p, s.medium());
    key(p, layout, "lora_name");
    nullableString(p, s.loraName());
    if (layout == EventLayout.ARRAY || extra != null) {
      key(p, layout, "extra_keys");
      if (extra == null) {
        p.packNil();
      } else {
        p.packArrayHeader(extra.size());
        for (List<Object> keys : extra) {
          value(p, keys);
        }
      }
    }
    if (layout == EventLayout.ARRAY || s.groupIdx() != null) {
      key(p, layout, "group_idx");
      nullableInt(p, s.groupIdx());
      key(p, layout, "kv_cache_spec_kind");
      nullableString(p, s.groupIdx() == null ? null : FULL_ATTENTION);
    }
    if (layout == EventLayout.ARRAY) {
      p.packNil(); // kv_cache_spec_sliding_window: full attention has none
    }
  }

  private static void removed(MessagePacker p, BlockRemoved r, EventLayout layout) throws IOException {
    if (layout == EventLayout.ARRAY) {
      p.packArrayHeader(1 + REMOVED_FIELDS.length);
      p.packString("BlockRemoved");
    } else {
      p.packMapHeader(r.groupIdx() == null ? 3 : 4);
      p.packString("type");
      p.packString("BlockRemoved");
    }
    key(p, layout, "block_hashes");
    hashes(p, r.blockHashes());
    key(p, layout, "medium");
    nullableString(p, r.medium());
    if (layout == EventLayout.ARRAY || r.groupIdx() != null) {
      key(p, layout, "group_idx");
      nullableInt(p, r.groupIdx());
    }
  }

  private static void tagOnly(MessagePacker p, String type, EventLayout layout) throws IOException {
    if (layout == EventLayout.ARRAY) {
      p.packArrayHeader(1);
    } else {
      p.packMapHeader(1);
      p.packString("type");
    }
    p.packString(type);
  }

  private static void key(MessagePacker p, EventLayout layout, String name) throws IOException {
    if (layout == EventLayout.MAP) {
      p.packString(name);
    }
  }

  private static void hashes(MessagePacker p, long[] hashes) throws IOException {
    p.packArrayHeader(hashes.length);
    for (long h : hashes) {
      hash(p, h);
    }
  }

  /** An unsigned 64-bit value in its shortest unsigned form, as Python's integers are written. */
  private static void hash(MessagePacker p, long h) throws IOException {
    if (h >= 0) {
      p.packLong(h);
    } else {
      p.packBigInteger(new BigInteger(Long.toUnsignedString(h)));
    }
  }

  private static void nullableInt(MessagePacker p, Integer v) throws IOException {
    if (v == null) {
      p.packNil();
    } else {
      p.packInt(v);
    }
  }

  private static void nullableString(MessagePacker p, String v) throws IOException {
    if (v == null) {
      p.packNil();
    } else {
      p.packString(v);
    }
  }

  private static void value(MessagePacker p, Object v) throws IOException {
    switch (v) {
      case null -> p.packNil();
      case String s -> p.packString(s);
      case Long l -> p.packLong(l);
      case Integer i -> p.packInt(i);
      case byte[] b -> {
        p.packBinaryHeader(b.length);
        p.writePayload(b);
      }
      case List<?> list -> {
        p.packArrayHeader(list.size());
        for (Object o : list) {
          value(p, o);
        }
      }
      default -> throw new IllegalArgumentException("extra key of type " + v.getClass().getSimpleName()
          + " cannot be encoded; use strings, integers, byte arrays or lists");
    }
  }

  /**
   * Decodes one message's payload.
   *
   * @throws MalformedEventException when the bytes are not a batch of events
   */
  public static KvEventBatch decode(byte[] payload) throws MalformedEventException {
    try (MessageUnpacker u = MessagePack.newDefaultUnpacker(payload)) {
      KvEventReader r = new KvEventReader(u, payload.length);
      KvEventBatch batch = r.batch();
      if (u.hasNext()) {
        throw new MalformedEventException("trailing bytes after the batch at offset " + u.getTotalReadBytes());
      }
      return batch;
    } catch (MessagePackException | IOException | ClassCastException e) {
      if (e instanceof MalformedEventException m) {
        throw m;
      }
      throw new MalformedEventException("not a MessagePack event batch: " + e.getMessage(), e);
    }
  }
}
