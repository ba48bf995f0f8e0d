package dev.modelplane.operator.modelsource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Writes small GGUF v3 files for tests: metadata key-values followed by filler standing in for tensor data. */
public final class GgufWriter {
  private final List<byte[]> kvs = new ArrayList<>();
  private long tensorCount = 0;

  public GgufWriter string(String key, String value) {
    kvs.add(concat(str(key), u32(8), str(value)));
    return this;
  }

  public GgufWriter uint32(String key, long value) {
    kvs.add(concat(str(key), u32(4), u32(value)));
    return this;
  }

  public GgufWriter uint64(String key, long value) {
    kvs.add(concat(str(key), u32(10), u64(value)));
    return this;
  }

  public GgufWriter floats(String key, int count) {
    ByteBuffer b = ByteBuffer.allocate(count * 4).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = 0; i < count; i++) {
      b.putFloat(i * 0.5f);
    }
    kvs.add(concat(str(key), u32(9), u32(6), u64(count), b.array()));
    return this;
  }

  public GgufWriter strings(String key, int count) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (int i = 0; i < count; i++) {
      out.writeBytes(str("tok" + i));
    }
    kvs.add(concat(str(key), u32(9), u32(8), u64(count), out.toByteArray()));
    return this;
  }

  public GgufWriter tensors(long count) {
    this.tensorCount = count;
    return this;
  }

  /** The file: header, key-values, then {@code filler} bytes. */
  public byte[] build(int filler) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("GGUF".getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(u32(3));
    out.writeBytes(u64(tensorCount));
    out.writeBytes(u64(kvs.size()));
    kvs.forEach(out::writeBytes);
    out.writeBytes(new byte[filler]);
    return out.toByteArray();
  }

  /** A llama-like file with a 32k-token vocabulary after the interesting keys. */
  public static byte[] llama(int filler) {
    return new GgufWriter().tensors(291)
        .string("general.architecture", "llama")
        .string("general.name", "Test Llama 8B")
        .uint32("general.file_type", 15)
        .string("general.license", "llama3.1")
        .uint32("llama.context_length", 131072)
        .uint32("llama.embedding_length", 4096)
        .uint32("llama.block_count", 32)
        .floats("llama.rope.freq_factors", 64)
        .uint32("llama.attention.head_count", 32)
        .string("tokenizer.ggml.model", "gpt2")
        .strings("tokenizer.ggml.tokens", 32_000)
        .build(filler);
  }

  private static byte[] str(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    return concat(u64(bytes.length), bytes);
  }

  private static byte[] u32(long v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array();
  }

  private static byte[] u64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
