package dev.modelplane.router.scheduling;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;

/**
 * A parsed OpenAI-style request body: which API it targets and the JSON itself. The bytes the prefix cache hashes
 * are derived lazily, per API as GIE does.
 */
public final class LlmRequestBody {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The OpenAI APIs GIE's {@code openai-parser} recognises, chosen by the suffix of the request path. */
  public enum Api {
    CONVERSATIONS("conversations"),
    RESPONSES("responses"),
    CHAT_COMPLETIONS("chat/completions"),
    COMPLETIONS("completions"),
    EMBEDDINGS("embeddings");

    private final String pathSuffix;

    Api(String pathSuffix) {
      this.pathSuffix = pathSuffix;
    }

    /** The API for a request path; anything unrecognised is treated as completions, as GIE does. */
    public static Api fromPath(String path) {
      String p = path == null ? "" : path;
      int query = p.indexOf('?');
      if (query >= 0) {
        p = p.substring(0, query);
      }
      for (Api api : values()) {
        if (p.endsWith("/" + api.pathSuffix)) {
          return api;
        }
      }
      return COMPLETIONS;
    }

    public String pathSuffix() {
      return pathSuffix;
    }
  }

  private final Api api;
  private final ObjectNode json;
  private final boolean stream;
  private byte[] userInput;

  public LlmRequestBody(Api api, ObjectNode json) {
    this.api = api;
    this.json = json;
    JsonNode s = json.get("stream");
    this.stream = s != null && s.isBoolean() && s.booleanValue();
  }

  public Api api() {
    return api;
  }

  public ObjectNode json() {
    return json;
  }

  public boolean stream() {
    return stream;
  }

  /** {@code cache_salt}, isolating prefix caches between tenants; empty when absent. */
  public String cacheSalt() {
    JsonNode salt = json.get("cache_salt");
    return salt != null && salt.isTextual() ? salt.textValue() : "";
  }

  /** The bytes whose prefix identifies the cached KV blocks (the prompt text or the JSON of the messages). */
  public byte[] userInputBytes() {
    if (userInput == null) {
      userInput = computeUserInput();
    }
    return userInput;
  }

  private byte[] computeUserInput() {
    try {
      return switch (api) {
        case CONVERSATIONS -> JSON.writeValueAsBytes(json.get("items"));
        case RESPONSES -> {
          ArrayNode combined = JSON.createArrayNode();
          if (json.hasNonNull("instructions")) {
            combined.addObject().set("instructions", json.get("instructions"));
          }
          if (json.hasNonNull("tools")) {
            combined.addObject().set("tools", json.get("tools"));
          }
          combined.addObject().set("input", json.get("input"));
          yield JSON.writeValueAsBytes(combined);
        }
        case CHAT_COMPLETIONS -> JSON.writeValueAsBytes(json.get("messages"));
        case COMPLETIONS -> promptText(json.get("prompt")).getBytes(StandardCharsets.UTF_8);
        case EMBEDDINGS -> JSON.writeValueAsBytes(json.get("input"));
      };
    } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
      return new byte[0];
    }
  }

  /** A completions prompt as plain text: a string as is, an array of strings joined by spaces. */
  static String promptText(JsonNode prompt) {
    if (prompt == null || prompt.isNull()) {
      return "";
    }
    if (prompt.isTextual()) {
      return prompt.textValue();
    }
    if (prompt.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode part : prompt) {
        if (!part.isTextual()) {
          continue; // token-id prompts have no text to hash
        }
        if (!sb.isEmpty()) {
          sb.append(' ');
        }
        sb.append(part.textValue());
      }
      return sb.toString();
    }
    return "";
  }
}
