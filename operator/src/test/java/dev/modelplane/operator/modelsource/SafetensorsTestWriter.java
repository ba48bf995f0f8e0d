package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Writes small safetensors files for tests: a real header with consistent offsets, and zeroed data. */
final class SafetensorsTestWriter {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<String, Integer> WIDTH = Map.of("F32", 4, "F16", 2, "BF16", 2, "I8", 1, "U8", 1,
      "F8_E4M3", 1, "I64", 8, "I32", 4);
  private final Map<String, long[]> shapes = new LinkedHashMap<>();
  private final Map<String, String> dtypes = new LinkedHashMap<>();
  private final Map<String, String> metadata = new LinkedHashMap<>();

  SafetensorsTestWriter tensor(String name, String dtype, long... shape) {
    shapes.put(name, shape);
    dtypes.put(name, dtype);
    return this;
  }

  SafetensorsTestWriter metadata(String key, String value) {
    metadata.put(key, value);
    return this;
  }

  /** The header JSON, with offsets laid out in order. */
  String headerJson() {
    ObjectNode header = JSON.createObjectNode();
    if (!metadata.isEmpty()) {
      ObjectNode meta = header.putObject("__metadata__");
      metadata.forEach(meta::put);
    }
    long offset = 0;
    for (var entry : shapes.entrySet()) {
      long elements = 1;
      for (long d : entry.getValue()) {
        elements *= d;
      }
      long bytes = elements * WIDTH.getOrDefault(dtypes.get(entry.getKey()), 1);
      ObjectNode t = header.putObject(entry.getKey());
      t.put("dtype", dtypes.get(entry.getKey()));
      var shape = t.putArray("shape");
      for (long d : entry.getValue()) {
        shape.add(d);
      }
      t.putArray("data_offsets").add(offset).add(offset + bytes);
      offset += bytes;
    }
    return header.toString();
  }

  long dataBytes() {
    try {
      var header = JSON.readTree(headerJson());
      long end = 0;
      for (var e : header.properties()) {
        if (!e.getKey().equals("__metadata__")) {
          end = Math.max(end, e.getValue().path("data_offsets").get(1).asLong());
        }
      }
      return end;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  byte[] bytes() {
    return file(headerJson(), dataBytes());
  }

  Path write(Path file) throws IOException {
    Files.createDirectories(file.getParent());
    Files.write(file, bytes());
    return file;
  }

  /** A file with the given header text, padded with spaces to a multiple of 8 as the format's writers do. */
  static byte[] file(String headerJson, long dataBytes) {
    byte[] header = headerJson.getBytes(StandardCharsets.UTF_8);
    int padded = (header.length + 7) / 8 * 8;
    return raw(padded, header, padded - header.length, dataBytes);
  }

  /** A file whose length field says {@code declaredLength}, followed by the header bytes, padding and data. */
  static byte[] raw(long declaredLength, byte[] header, int spaces, long dataBytes) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(declaredLength).array());
    out.writeBytes(header);
    out.writeBytes(" ".repeat(spaces).getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(new byte[(int) dataBytes]);
    return out.toByteArray();
  }
}
