package dev.modelplane.common.kvevents;

import dev.modelplane.common.kvevents.KvEvent.AllBlocksCleared;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEvent.Unknown;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessagePackException;
import org.msgpack.core.MessagePacker;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

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
  private static final String[] STORED_FIELDS = {"block_hashes", "parent_block_hash", "token_ids", "block_size",
      "lora_id", "medium", "lora_name", "extra_keys", "group_idx", "kv_cache_spec_kind",
      "kv_cache_spec_sliding_window"};
  private static final String[] REMOVED_FIELDS = {"block_hashes", "medium", "group_idx"};
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
      Reader r = new Reader(u, payload.length);
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

  /** The reading side; one per payload. */
  private static final class Reader {
    private static final int MAX_DEPTH = 8;
    private final MessageUnpacker u;
    private final long size;

    Reader(MessageUnpacker u, long size) {
      this.u = u;
      this.size = size;
    }

    KvEventBatch batch() throws IOException {
      ValueType type = u.getNextFormat().getValueType();
      double ts;
      List<KvEvent> events;
      Integer rank = null;
      if (type == ValueType.ARRAY) {
        int n = arrayHeader();
        if (n < 2) {
          throw new MalformedEventException("a batch array needs [timestamp, events], got " + n + " elements");
        }
        ts = number();
        events = events();
        if (n > 2) {
          rank = nullableInt();
        }
        skip(n - 3);
      } else if (type == ValueType.MAP) {
        Map<String, Object> fields = new HashMap<>();
        int n = mapHeader();
        ts = Double.NaN;
        events = null;
        for (int i = 0; i < n; i++) {
          String key = string();
          switch (key) {
            case "ts" -> ts = number();
            case "events" -> events = events();
            case "data_parallel_rank" -> rank = nullableInt();
            default -> u.skipValue();
          }
          fields.put(key, Boolean.TRUE);
        }
        if (events == null || Double.isNaN(ts)) {
          throw new MalformedEventException("a batch map needs \"ts\" and \"events\", got keys " + fields.keySet());
        }
      } else {
        throw new MalformedEventException("a batch is an array or a map, not " + type);
      }
      return new KvEventBatch(ts, events, rank);
    }

    private List<KvEvent> events() throws IOException {
      int n = arrayHeader();
      List<KvEvent> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        out.add(event());
      }
      return out;
    }

    private KvEvent event() throws IOException {
      ValueType type = u.getNextFormat().getValueType();
      if (type == ValueType.ARRAY) {
        int n = arrayHeader();
        if (n < 1) {
          throw new MalformedEventException("an event array needs its type first, got an empty array");
        }
        String tag = string();
        Fields f = new Fields();
        String[] names = switch (tag) {
          case "BlockStored" -> STORED_FIELDS;
          case "BlockRemoved" -> REMOVED_FIELDS;
          default -> new String[0];
        };
        for (int i = 1; i < n; i++) {
          if (i - 1 < names.length) {
            f.read(names[i - 1]);
          } else {
            u.skipValue();
          }
        }
        return f.build(tag);
      }
      if (type == ValueType.MAP) {
        int n = mapHeader();
        Fields f = new Fields();
        String tag = null;
        for (int i = 0; i < n; i++) {
          String key = string();
          if (key.equals("type")) {
            tag = string();
          } else {
            f.read(key);
          }
        }
        if (tag == null) {
          throw new MalformedEventException("an event map without \"type\"");
        }
        return f.build(tag);
      }
      throw new MalformedEventException("an event is an array or a map, not " + type);
    }

    /** The fields of one event as they are read, by name. */
    private final class Fields {
      long[] hashes = new long[0];
      Long parent;
      int[] tokens = new int[0];
      int blockSize;
      Integer loraId;
      String medium;
      String loraName;
      List<List<Object>> extraKeys;
      Integer groupIdx;

      void read(String name) throws IOException {
        switch (name) {
          case "block_hashes" -> hashes = hashList();
          case "parent_block_hash" -> parent = nullableHash();
          case "token_ids" -> tokens = tokenList();
          case "block_size" -> blockSize = nullableInt() instanceof Integer i ? i : 0;
          case "lora_id" -> loraId = nullableInt();
          case "medium" -> medium = nullableString();
          case "lora_name" -> loraName = nullableString();
          case "extra_keys" -> extraKeys = extraKeys();
          case "group_idx" -> groupIdx = nullableInt();
          default -> u.skipValue();
        }
      }

      KvEvent build(String tag) throws MalformedEventException {
        return switch (tag) {
          case "BlockStored" -> {
            if (blockSize <= 0) {
              throw new MalformedEventException("BlockStored without a positive block_size");
            }
            yield new BlockStored(hashes, parent, tokens, blockSize, loraId, medium, loraName, extraKeys, groupIdx);
          }
          case "BlockRemoved" -> new BlockRemoved(hashes, medium, groupIdx);
          case "AllBlocksCleared" -> new AllBlocksCleared();
          default -> new Unknown(tag);
        };
      }
    }

    private long[] hashList() throws IOException {
      int n = arrayHeader();
      long[] out = new long[n];
      for (int i = 0; i < n; i++) {
        Long h = nullableHash();
        if (h == null) {
          throw new MalformedEventException("a block hash is nil");
        }
        out[i] = h;
      }
      return out;
    }

    private Long nullableHash() throws IOException {
      MessageFormat f = u.getNextFormat();
      switch (f.getValueType()) {
        case NIL -> {
          u.unpackNil();
          return null;
        }
        case INTEGER -> {
          return f == MessageFormat.UINT64 ? u.unpackBigInteger().longValue() : u.unpackLong();
        }
        case BINARY -> {
          int n = u.unpackBinaryHeader();
          check(n);
          byte[] digest = u.readPayload(n);
          long h = 0;
          for (int i = Math.max(0, n - 8); i < n; i++) {
            h = (h << 8) | (digest[i] & 0xff);
          }
          return h;
        }
        default -> throw new MalformedEventException("a block hash is an integer or bytes, not " + f.getValueType());
      }
    }

    private int[] tokenList() throws IOException {
      int n = arrayHeader();
      int[] out = new int[n];
      for (int i = 0; i < n; i++) {
        long t = u.unpackLong();
        if (t < 0 || t > 0xffff_ffffL) {
          throw new MalformedEventException("token id " + t + " out of range");
        }
        out[i] = (int) t;
      }
      return out;
    }

    private List<List<Object>> extraKeys() throws IOException {
      if (u.tryUnpackNil()) {
        return null;
      }
      int n = arrayHeader();
      List<List<Object>> out = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        Object v = value(1);
        if (v != null && !(v instanceof List<?>)) {
          throw new MalformedEventException("extra_keys entry " + i + " is neither a list nor nil");
        }
        @SuppressWarnings("unchecked")
        List<Object> keys = (List<Object>) v;
        out.add(keys);
      }
      return out;
    }

    /** A plain value: nil, boolean, integer, float, string, bytes or a list of those (maps are not expected). */
    private Object value(int depth) throws IOException {
      if (depth > MAX_DEPTH) {
        throw new MalformedEventException("extra keys nested deeper than " + MAX_DEPTH);
      }
      MessageFormat f = u.getNextFormat();
      return switch (f.getValueType()) {
        case NIL -> {
          u.unpackNil();
          yield null;
        }
        case BOOLEAN -> u.unpackBoolean();
        case INTEGER -> f == MessageFormat.UINT64 ? (Object) u.unpackBigInteger() : (Object) u.unpackLong();
        case FLOAT -> u.unpackDouble();
        case STRING -> string();
        case BINARY -> {
          int n = u.unpackBinaryHeader();
          check(n);
          yield u.readPayload(n);
        }
        case ARRAY -> {
          int n = arrayHeader();
          List<Object> list = new ArrayList<>(n);
          for (int i = 0; i < n; i++) {
            list.add(value(depth + 1));
          }
          yield list;
        }
        default -> throw new MalformedEventException("unexpected " + f.getValueType() + " in extra keys");
      };
    }

    private double number() throws IOException {
      MessageFormat f = u.getNextFormat();
      return switch (f.getValueType()) {
        case FLOAT -> u.unpackDouble();
        case INTEGER -> u.unpackLong();
        default -> throw new MalformedEventException("a timestamp is a number, not " + f.getValueType());
      };
    }

    private Integer nullableInt() throws IOException {
      if (u.tryUnpackNil()) {
        return null;
      }
      long v = u.unpackLong();
      if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
        throw new MalformedEventException("integer " + v + " out of range");
      }
      return (int) v;
    }

    private String nullableString() throws IOException {
      return u.tryUnpackNil() ? null : string();
    }

    private String string() throws IOException {
      MessageFormat f = u.getNextFormat();
      if (f.getValueType() != ValueType.STRING) {
        throw new MalformedEventException("expected a string, got " + f.getValueType());
      }
      int n = u.unpackRawStringHeader();
      check(n);
      return new String(u.readPayload(n), java.nio.charset.StandardCharsets.UTF_8);
    }

    private int arrayHeader() throws IOException {
      int n = u.unpackArrayHeader();
      check(n);
      return n;
    }

    private int mapHeader() throws IOException {
      int n = u.unpackMapHeader();
      check(2L * n);
      return n;
    }

    private void skip(int n) throws IOException {
      for (int i = 0; i < n; i++) {
        u.skipValue();
      }
    }

    /** Every element takes at least one byte: a count larger than the bytes left is a lie, refused before use. */
    private void check(long count) throws MalformedEventException {
      if (count < 0 || count > size - u.getTotalReadBytes()) {
        throw new MalformedEventException("a length of " + count + " at offset " + u.getTotalReadBytes()
            + " exceeds the " + (size - u.getTotalReadBytes()) + " bytes left");
      }
    }
  }
}
