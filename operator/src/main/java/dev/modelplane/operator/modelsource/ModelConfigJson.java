package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the JSON files of a model repository: bounded in size, and accepting the NaN and Infinity Python writes. */
final class ModelConfigJson {
  /** Largest configuration file read; real ones are kilobytes. */
  static final long MAX_BYTES = 16L * 1024 * 1024;
  private static final JsonMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
      .build();

  private ModelConfigJson() {
  }

  static ObjectNode read(Path file) throws ModelConfigException {
    try {
      long size = Files.size(file);
      if (size > MAX_BYTES) {
        throw new ModelConfigException(file + ": is " + size + " bytes, more than the " + MAX_BYTES + "-byte limit");
      }
      JsonNode root = JSON.readTree(Files.readAllBytes(file));
      if (root == null || !root.isObject()) {
        throw new ModelConfigException(file + ": is not a JSON object");
      }
      return (ObjectNode) root;
    } catch (JacksonException e) {
      JsonLocation at = e.getLocation();
      String where = at == null ? "" : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")";
      throw new ModelConfigException(file + ": is not valid JSON: " + e.getOriginalMessage() + where, e);
    } catch (ModelConfigException e) {
      throw e;
    } catch (IOException e) {
      throw new ModelConfigException(file + ": cannot be read: " + e.getMessage(), e);
    }
  }
}
