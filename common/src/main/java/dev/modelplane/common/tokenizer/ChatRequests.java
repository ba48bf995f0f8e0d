package dev.modelplane.common.tokenizer;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The messages of an OpenAI chat completion request as a vLLM server hands them to its chat template: each message's
 * role, and its content as text, where a list of parts becomes its text parts joined by newlines (other parts, such
 * as images, leave no text). The router and the simulator both read requests through this, so both render the same
 * prompt.
 */
public final class ChatRequests {
  private ChatRequests() {
  }

  /**
   * The request's messages.
   *
   * @throws IllegalArgumentException naming the field, when {@code messages} is not a non-empty array of objects
   *     with a string {@code role} and a string, list or null {@code content}
   */
  public static List<ChatMessage> messages(JsonNode body) {
    JsonNode messages = body == null ? null : body.get("messages");
    if (messages == null || !messages.isArray() || messages.isEmpty()) {
      throw new IllegalArgumentException("'messages' must be a non-empty array.");
    }
    List<ChatMessage> list = new ArrayList<>(messages.size());
    for (JsonNode m : messages) {
      if (!m.isObject() || !m.path("role").isTextual()) {
        throw new IllegalArgumentException("Each message needs a string 'role'.");
      }
      list.add(new ChatMessage(m.get("role").asText(), content(m.get("content"))));
    }
    return list;
  }

  /** Whether the request asks for the assistant's turn to be opened ({@code add_generation_prompt}, default true). */
  public static boolean addGenerationPrompt(JsonNode body) {
    JsonNode v = body.get("add_generation_prompt");
    return v == null || !v.isBoolean() || v.booleanValue();
  }

  private static String content(JsonNode c) {
    if (c == null || c.isNull()) {
      return "";
    }
    if (c.isTextual()) {
      return c.asText();
    }
    if (c.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode part : c) {
        if (part.path("type").asText("").equals("text")) {
          if (!sb.isEmpty()) {
            sb.append('\n');
          }
          sb.append(part.path("text").asText(""));
        }
      }
      return sb.toString();
    }
    throw new IllegalArgumentException("Message 'content' must be a string or a list of parts.");
  }
}
