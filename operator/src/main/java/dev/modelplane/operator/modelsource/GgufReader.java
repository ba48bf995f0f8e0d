package dev.modelplane.operator.modelsource;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Reads the metadata of a GGUF file (versions 2 and 3) from the start of a stream: architecture, name, file type,
 * license, tensor count, and the architecture's context length, embedding size, head count and block (layer) count.
 * Reading is sequential and stops as soon as these are known or the tokenizer section begins, so a ranged HTTP
 * stream fetches only the first few hundred kilobytes of a multi-gigabyte file.
 *
 * <p>The input is untrusted: strings are at most 16 MiB, arrays at most 64 Mi elements and 8 levels of arrays in
 * arrays, so a hostile header can neither exhaust the stack nor make the reader loop far past its end; anything out
 * of bounds is an {@link IOException}.
 */
public final class GgufReader {
  private static final int MAGIC = 0x46554747; // "GGUF" little-endian
  private static final int MAX_STRING = 16 * 1024 * 1024;
  /** Most elements in one array: real vocabularies and merge lists have a few hundred thousand. */
  private static final long MAX_ARRAY = 64L * 1024 * 1024;
  /** Deepest nesting of arrays in arrays; real files nest at most once. */
  private static final int MAX_ARRAY_DEPTH = 8;

  /** llama.cpp's {@code llama_ftype} names, for {@code general.file_type}. */
  private static final Map<Integer, String> FILE_TYPES = Map.ofEntries(
      Map.entry(0, "F32"), Map.entry(1, "F16"), Map.entry(2, "Q4_0"), Map.entry(3, "Q4_1"), Map.entry(7, "Q8_0"),
      Map.entry(8, "Q5_0"), Map.entry(9, "Q5_1"), Map.entry(10, "Q2_K"), Map.entry(11, "Q3_K_S"),
      Map.entry(12, "Q3_K_M"), Map.entry(13, "Q3_K_L"), Map.entry(14, "Q4_K_S"), Map.entry(15, "Q4_K_M"),
      Map.entry(16, "Q5_K_S"), Map.entry(17, "Q5_K_M"), Map.entry(18, "Q6_K"), Map.entry(19, "IQ2_XXS"),
      Map.entry(20, "IQ2_XS"), Map.entry(21, "Q2_K_S"), Map.entry(22, "IQ3_XS"), Map.entry(23, "IQ3_XXS"),
      Map.entry(24, "IQ1_S"), Map.entry(25, "IQ4_NL"), Map.entry(26, "IQ3_S"), Map.entry(27, "IQ3_M"),
      Map.entry(28, "IQ2_S"), Map.entry(29, "IQ2_M"), Map.entry(30, "IQ4_XS"), Map.entry(31, "IQ1_M"),
      Map.entry(32, "BF16"), Map.entry(36, "TQ1_0"), Map.entry(37, "TQ2_0"));

  private final InputStream in;
  private final byte[] buf = new byte[8];

  private GgufReader(InputStream in) {
    this.in = in;
  }

  /**
   * The metadata at the start of a GGUF stream.
   *
   * @throws IOException when the stream is not GGUF, is truncated, or cannot be read
   */
  public static GgufMetadata read(InputStream in) throws IOException {
    return new GgufReader(in).parse();
  }

  private GgufMetadata parse() throws IOException {
    if (i32() != MAGIC) {
      throw new IOException("not a GGUF file (bad magic)");
    }
    int version = i32();
    if (version < 2 || version > 3) {
      throw new IOException("unsupported GGUF version " + version);
    }
    long tensors = i64();
    long kvCount = i64();
    if (tensors < 0 || kvCount < 0 || kvCount > 1_000_000) {
      throw new IOException("corrupt GGUF header");
    }
    Fields f = new Fields();
    for (long i = 0; i < kvCount && !f.complete(); i++) {
      String key = string();
      int type = i32();
      if (key.startsWith("tokenizer.") && f.architecture != null) {
        break;
      }
      Object value = wanted(key, f) ? scalar(type) : skip(type, 0);
      f.accept(key, value);
    }
    return new GgufMetadata(f.architecture, f.name, f.fileType == null ? null
        : FILE_TYPES.getOrDefault(f.fileType.intValue(), "type " + f.fileType), f.license, version, tensors,
        f.contextLength, f.embedding, f.heads, f.blocks);
  }

  private static boolean wanted(String key, Fields f) {
    return key.startsWith("general.") || (f.architecture != null && key.startsWith(f.architecture + "."));
  }

  /** Collected fields. */
  private static final class Fields {
    String architecture;
    String name;
    Long fileType;
    String license;
    Long contextLength;
    Long embedding;
    Long heads;
    Long blocks;

    void accept(String key, Object value) {
      switch (key) {
        case "general.architecture" -> architecture = value instanceof String s ? s : null;
        case "general.name" -> name = value instanceof String s ? s : null;
        case "general.file_type" -> fileType = value instanceof Long l ? l : null;
        case "general.license" -> license = value instanceof String s ? s : null;
        default -> {
          if (architecture == null || !(value instanceof Long l) || !key.startsWith(architecture + ".")) {
            return; // e.g. general.quantization_version, or a general.* key shorter than the architecture
          }
          String suffix = key.substring(architecture.length() + 1);
          switch (suffix) {
            case "context_length" -> contextLength = l;
            case "embedding_length" -> embedding = l;
            case "attention.head_count" -> heads = l;
            case "block_count" -> blocks = l;
            default -> {
            }
          }
        }
      }
    }

    boolean complete() {
      return architecture != null && name != null && fileType != null && license != null && contextLength != null
          && embedding != null && heads != null && blocks != null;
    }
  }

  /** A value of a wanted key: strings and integers; anything else is skipped (null). */
  private Object scalar(int type) throws IOException {
    return switch (type) {
      case 0, 1 -> (long) (type == 0 ? u8() : (byte) u8());
      case 2, 3 -> {
        long v = u8() | ((long) u8() << 8);
        yield type == 2 ? v : (long) (short) v;
      }
      case 4 -> i32() & 0xFFFFFFFFL;
      case 5 -> (long) i32();
      case 10, 11 -> i64();
      case 8 -> string();
      default -> skip(type, 0);
    };
  }

  private Object skip(int type, int depth) throws IOException {
    switch (type) {
      case 0, 1, 7 -> skipBytes(1);
      case 2, 3 -> skipBytes(2);
      case 4, 5, 6 -> skipBytes(4);
      case 10, 11, 12 -> skipBytes(8);
      case 8 -> skipBytes(length());
      case 9 -> {
        if (depth >= MAX_ARRAY_DEPTH) {
          throw new IOException("corrupt GGUF array: nested more than " + MAX_ARRAY_DEPTH + " levels deep");
        }
        int elementType = i32();
        long count = i64();
        if (count < 0 || count > MAX_ARRAY) {
          throw new IOException("corrupt GGUF array of " + Long.toUnsignedString(count) + " elements (at most "
              + MAX_ARRAY + ")");
        }
        int size = fixedSize(elementType);
        if (size > 0) {
          skipBytes(count * size);
        } else {
          for (long i = 0; i < count; i++) {
            skip(elementType, depth + 1);
          }
        }
      }
      default -> throw new IOException("unknown GGUF value type " + type);
    }
    return null;
  }

  private static int fixedSize(int type) {
    return switch (type) {
      case 0, 1, 7 -> 1;
      case 2, 3 -> 2;
      case 4, 5, 6 -> 4;
      case 10, 11, 12 -> 8;
      default -> -1;
    };
  }

  private String string() throws IOException {
    long length = length();
    byte[] bytes = in.readNBytes((int) length);
    if (bytes.length != length) {
      throw new EOFException("truncated GGUF string");
    }
    return new String(bytes, StandardCharsets.UTF_8);
  }

  private long length() throws IOException {
    long length = i64();
    if (length < 0 || length > MAX_STRING) {
      throw new IOException("corrupt GGUF string length " + Long.toUnsignedString(length) + " (at most " + MAX_STRING
          + " bytes)");
    }
    return length;
  }

  private void skipBytes(long n) throws IOException {
    long left = n;
    while (left > 0) {
      long skipped = in.skip(left);
      if (skipped <= 0) {
        if (in.read() < 0) {
          throw new EOFException("truncated GGUF");
        }
        skipped = 1;
      }
      left -= skipped;
    }
  }

  private int u8() throws IOException {
    int b = in.read();
    if (b < 0) {
      throw new EOFException("truncated GGUF");
    }
    return b;
  }

  private int i32() throws IOException {
    fill(4);
    return (buf[0] & 0xFF) | (buf[1] & 0xFF) << 8 | (buf[2] & 0xFF) << 16 | (buf[3] & 0xFF) << 24;
  }

  private long i64() throws IOException {
    fill(8);
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = (v << 8) | (buf[i] & 0xFF);
    }
    return v;
  }

  private void fill(int n) throws IOException {
    if (in.readNBytes(buf, 0, n) != n) {
      throw new EOFException("truncated GGUF");
    }
  }
}
