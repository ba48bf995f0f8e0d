package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.CharConversionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A sharded checkpoint's {@code model.safetensors.index.json}: which shard file holds each tensor, and the byte
 * size of all tensor data ({@code metadata.total_size}) when the writer recorded it.
 *
 * @param weightMap tensor name to shard file name, in file order
 * @param totalSize {@code metadata.total_size}: bytes of tensor data over all shards
 */
public record SafetensorsIndex(Map<String, String> weightMap, OptionalLong totalSize) {
  /** The file name transformers writes for a sharded safetensors checkpoint. */
  public static final String FILE_NAME = "model.safetensors.index.json";
  /** Largest index accepted; indexes of the largest public models are a few megabytes. */
  public static final long MAX_BYTES = 64L * 1024 * 1024;
  private static final ObjectMapper JSON = new ObjectMapper();

  public SafetensorsIndex {
    weightMap = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(weightMap));
  }

  /** The shard file names, each once, sorted. */
  public List<String> shardFiles() {
    return weightMap.values().stream().distinct().sorted().toList();
  }

  /** Reads and checks an index file; shard names must be plain file names in the index's directory. */
  public static SafetensorsIndex read(Path file) throws IOException {
    long size = Files.size(file);
    if (size > MAX_BYTES) {
      throw new SafetensorsFormatException(file + ": is " + size + " bytes, more than the " + MAX_BYTES
          + "-byte limit for an index");
    }
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (JacksonException e) {
      throw new SafetensorsFormatException(file + ": is not valid JSON: " + e.getOriginalMessage(), e);
    } catch (CharConversionException e) {
      // Jackson guesses UTF-16 or UTF-32 from leading zero bytes and reports their invalid characters this way.
      throw new SafetensorsFormatException(file + ": is not UTF-8 JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new SafetensorsFormatException(file + ": is not a JSON object");
    }
    JsonNode map = root.path("weight_map");
    if (!map.isObject() || map.isEmpty()) {
      throw new SafetensorsFormatException(file + ": has no weight_map entries");
    }
    Map<String, String> weightMap = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : map.properties()) {
      String shard = entry.getValue().isTextual() ? entry.getValue().asText() : "";
      if (shard.isEmpty()) {
        throw new SafetensorsFormatException(file + ": weight_map entry '" + entry.getKey()
            + "' does not name a shard file");
      }
      if (shard.contains("/") || shard.contains("\\") || shard.equals("..") || shard.equals(".")) {
        throw new SafetensorsFormatException(file + ": weight_map entry '" + entry.getKey() + "' names '" + shard
            + "', which is not a file in the index's directory");
      }
      weightMap.put(entry.getKey(), shard);
    }
    JsonNode total = root.path("metadata").path("total_size");
    OptionalLong totalSize = total.canConvertToExactIntegral() && total.canConvertToLong() && total.asLong() >= 0
        ? OptionalLong.of(total.asLong()) : OptionalLong.empty();
    return new SafetensorsIndex(weightMap, totalSize);
  }
}
