package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import java.io.BufferedInputStream;
import java.io.CharConversionException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The header of a safetensors file: an unsigned 64-bit little-endian length, then that many bytes of JSON mapping
 * each tensor name to its dtype, shape and data offsets, plus an optional {@code __metadata__} map of strings.
 *
 * <p>Only the header is read, never the weights. The JSON is read as a stream, so memory follows the number of
 * tensors, which is bounded ({@link #MAX_TENSORS}) as is the header ({@link #MAX_HEADER_BYTES}); a file claiming
 * more, a negative or overflowing dimension, or offsets outside the file is refused with a message naming it.
 *
 * @param headerLength length of the JSON header in bytes
 * @param tensors the tensors in header order
 * @param metadata the {@code __metadata__} entries; empty when absent
 */
public record SafetensorsHeader(long headerLength, List<SafetensorsTensor> tensors, Map<String, String> metadata) {
  /** Largest header accepted: real headers are kilobytes to a few megabytes. */
  public static final long MAX_HEADER_BYTES = 100L * 1024 * 1024;
  /** Most tensors accepted in one file; the largest public checkpoints have tens of thousands in all shards. */
  public static final int MAX_TENSORS = 1_000_000;
  private static final String METADATA = "__metadata__";
  private static final JsonFactory JSON = JsonFactory.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(16).maxNumberLength(40)
          .maxStringLength(1 << 20).build())
      .build();

  public SafetensorsHeader {
    tensors = List.copyOf(tensors);
    metadata = Map.copyOf(metadata);
  }

  /**
   * The exact number of parameters: the sum over tensors of the product of their shape ({@code __metadata__} is not
   * a tensor and does not count).
   *
   * @throws ArithmeticException if the sum does not fit in a long (each tensor's count was checked when read)
   */
  public long parameterCount() {
    long total = 0;
    for (SafetensorsTensor tensor : tensors) {
      total = Math.addExact(total, tensor.elementCount());
    }
    return total;
  }

  /** Reads the header of {@code file}, and nothing past it. */
  public static SafetensorsHeader read(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size < 8) {
        throw new SafetensorsFormatException(file + ": is " + size + " bytes, too short for the 8-byte header length");
      }
      ByteBuffer prefix = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN);
      while (prefix.hasRemaining() && channel.read(prefix) >= 0) {
        // FileChannel may return short reads; loop until the 8 bytes are in.
      }
      long length = checkedLength(prefix.flip().getLong(), file.toString());
      if (length > size - 8) {
        throw new SafetensorsFormatException(file + ": declares a header of " + length + " bytes but only "
            + (size - 8) + " bytes follow the length");
      }
      InputStream body = new BufferedInputStream(Channels.newInputStream(channel), 64 * 1024);
      return parse(body, length, file.toString(), OptionalLong.of(size - 8 - length));
    }
  }

  /**
   * Reads a header from the start of {@code in}, consuming the length and the header only.
   *
   * @param source names the stream in error messages, e.g. a file name or URL path
   */
  public static SafetensorsHeader read(InputStream in, String source) throws IOException {
    byte[] prefix = in.readNBytes(8);
    if (prefix.length < 8) {
      throw new SafetensorsFormatException(source + ": ends after " + prefix.length
          + " bytes, too short for the 8-byte header length");
    }
    long length = checkedLength(ByteBuffer.wrap(prefix).order(ByteOrder.LITTLE_ENDIAN).getLong(), source);
    return parse(in, length, source, OptionalLong.empty());
  }

  private static long checkedLength(long length, String source) throws SafetensorsFormatException {
    if (length < 0 || length > MAX_HEADER_BYTES) {
      throw new SafetensorsFormatException(source + ": declares a header of " + Long.toUnsignedString(length)
          + " bytes, more than the " + MAX_HEADER_BYTES + "-byte limit");
    }
    if (length < 2) {
      throw new SafetensorsFormatException(source + ": declares a header of " + length
          + " bytes, too short for a JSON object");
    }
    return length;
  }

  private static SafetensorsHeader parse(InputStream in, long length, String source, OptionalLong dataBytes)
      throws IOException {
    HeaderStream header = new HeaderStream(in, length, source);
    try (JsonParser parser = JSON.createParser(header)) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new SafetensorsFormatException(source + ": header is not a JSON object");
      }
      List<SafetensorsTensor> tensors = new ArrayList<>();
      Map<String, String> metadata = Map.of();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String name = parser.currentName();
        JsonToken value = parser.nextToken();
        if (name.equals(METADATA)) {
          metadata = metadata(parser, value, source);
          continue;
        }
        if (tensors.size() == MAX_TENSORS) {
          throw new SafetensorsFormatException(source + ": has more than " + MAX_TENSORS + " tensors");
        }
        SafetensorsTensor tensor = SafetensorsTensorReader.read(parser, value, name, source);
        if (dataBytes.isPresent() && tensor.dataEnd() > dataBytes.getAsLong()) {
          throw new SafetensorsFormatException(source + ": tensor '" + name + "' ends at byte " + tensor.dataEnd()
              + " of the data, but the file holds only " + dataBytes.getAsLong() + " data bytes");
        }
        tensors.add(tensor);
      }
      if (parser.currentToken() != JsonToken.END_OBJECT || parser.nextToken() != null) {
        throw new SafetensorsFormatException(source + ": header has content after its JSON object");
      }
      return new SafetensorsHeader(length, tensors, metadata);
    } catch (StreamConstraintsException e) {
      throw new SafetensorsFormatException(source + ": header exceeds a parsing limit: " + e.getOriginalMessage(), e);
    } catch (JsonParseException e) {
      throw new SafetensorsFormatException(source + ": header is not valid JSON: " + e.getOriginalMessage(), e);
    } catch (CharConversionException e) {
      // Jackson guesses UTF-16 or UTF-32 from leading zero bytes and reports their invalid characters this way.
      throw new SafetensorsFormatException(source + ": header is not UTF-8 JSON: " + e.getMessage(), e);
    }
  }

  private static Map<String, String> metadata(JsonParser parser, JsonToken value, String source) throws IOException {
    if (value != JsonToken.START_OBJECT) {
      throw new SafetensorsFormatException(source + ": __metadata__ is not a JSON object");
    }
    Map<String, String> metadata = new LinkedHashMap<>();
    while (parser.nextToken() == JsonToken.FIELD_NAME) {
      String key = parser.currentName();
      JsonToken entry = parser.nextToken();
      if (!entry.isScalarValue()) {
        throw new SafetensorsFormatException(source + ": __metadata__ entry '" + key + "' is not a string");
      }
      metadata.put(key, parser.getText());
    }
    return metadata;
  }

  /**
   * Exactly the header's bytes of the underlying stream: reading stops at the declared length, and a stream that
   * ends before it is reported as a truncated header rather than as a JSON syntax error.
   */
  private static final class HeaderStream extends FilterInputStream {
    private final long length;
    private final String source;
    private long remaining;

    HeaderStream(InputStream in, long length, String source) {
      super(in);
      this.length = length;
      this.remaining = length;
      this.source = source;
    }

    @Override
    public int read() throws IOException {
      if (remaining == 0) {
        return -1;
      }
      int b = super.read();
      if (b < 0) {
        throw truncated();
      }
      remaining--;
      return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
      if (remaining == 0) {
        return -1;
      }
      int n = super.read(buffer, offset, (int) Math.min(count, remaining));
      if (n < 0) {
        throw truncated();
      }
      remaining -= n;
      return n;
    }

    @Override
    public void close() {
      // The caller owns the underlying stream.
    }

    private SafetensorsFormatException truncated() {
      return new SafetensorsFormatException(source + ": ends after " + (length - remaining) + " of the header's "
          + length + " bytes");
    }
  }
}
