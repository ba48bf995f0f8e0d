package dev.modelplane.common.kvevents;

import dev.modelplane.common.kvevents.KvEvent.AllBlocksCleared;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEvent.Unknown;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.msgpack.core.MessageFormat;
import org.msgpack.core.MessageUnpacker;
import org.msgpack.value.ValueType;

/**
 * The reading side of {@link KvEventCodec}: one per payload, lenient where servers differ, strict where input could
 * hurt (every length is checked against the bytes left before anything is allocated).
 */
final class KvEventReader {
  private static final int MAX_DEPTH = 8;
  private final MessageUnpacker u;
  private final long size;

  KvEventReader(MessageUnpacker u, long size) {
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
        case "BlockStored" -> KvEventCodec.STORED_FIELDS;
        case "BlockRemoved" -> KvEventCodec.REMOVED_FIELDS;
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
    return new String(u.readPayload(n), StandardCharsets.UTF_8);
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
