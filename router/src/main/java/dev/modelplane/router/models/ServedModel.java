package dev.modelplane.router.models;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A model a server answers to, as its {@code GET /v1/models} lists it.
 *
 * @param id the name clients send as {@code model}
 * @param parent the base model of a LoRA adapter (vLLM's {@code parent}), {@code null} for a base model
 */
public record ServedModel(String id, String parent) {
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Entries read from one answer at most; a server listing more is cut there. */
  static final int MAX_ENTRIES = 1024;
  /** Longest model name kept; longer ones are skipped. */
  static final int MAX_ID_LENGTH = 512;

  /**
   * The models of an OpenAI {@code /v1/models} answer ({@code {"data":[{"id":…,"parent":…}]}}).
   *
   * @throws IllegalArgumentException when the body is not such an answer
   */
  public static List<ServedModel> parseList(byte[] body) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage());
    }
    JsonNode data = root == null ? null : root.get("data");
    if (data == null || !data.isArray()) {
      throw new IllegalArgumentException("no \"data\" list");
    }
    List<ServedModel> out = new ArrayList<>();
    for (JsonNode entry : data) {
      if (out.size() == MAX_ENTRIES) {
        break;
      }
      JsonNode id = entry.get("id");
      if (id == null || !id.isTextual() || id.asText().isEmpty() || id.asText().length() > MAX_ID_LENGTH) {
        continue;
      }
      JsonNode parent = entry.get("parent");
      String parentId = parent != null && parent.isTextual() && !parent.asText().isEmpty()
          && !parent.asText().equals(id.asText()) ? parent.asText() : null;
      out.add(new ServedModel(id.asText(), parentId));
    }
    return List.copyOf(out);
  }
}
