package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.common.tokenizer.ChatMessage;
import dev.modelplane.common.tokenizer.ChatRequests;
import dev.modelplane.common.tokenizer.ChatTemplateException;
import dev.modelplane.common.tokenizer.ModelTokenizer;
import java.util.ArrayList;
import java.util.List;

/**
 * The fields of a chat or text completion request that the simulator acts on. Sampling fields (temperature, top_p,
 * seed, …) are accepted and ignored; wrong types of the fields we read are 400s.
 */
record CompletionRequest(boolean chat, String model, String prompt, String echoSource, int[] promptIds,
    Integer maxTokens, boolean stream, boolean includeUsage, List<String> stop, boolean ignoreEos) {

  /** Parses a request; a chat's messages are rendered to the prompt with {@code tokenizer}'s chat template. */
  static CompletionRequest parse(JsonNode body, boolean chat, ModelTokenizer tokenizer) throws RequestException {
    if (!body.isObject()) {
      throw new RequestException(ApiError.badRequest("The request body must be a JSON object."));
    }
    String model = body.hasNonNull("model") ? text(body, "model") : null;
    String prompt;
    String echo;
    int[] ids = null;
    if (chat) {
      List<ChatMessage> list;
      try {
        list = ChatRequests.messages(body);
      } catch (IllegalArgumentException e) {
        throw new RequestException(ApiError.badRequest(e.getMessage(), "messages"));
      }
      prompt = render(list, tokenizer);
      echo = echoSource(list);
    } else {
      JsonNode p = body.get("prompt");
      if (p == null || p.isNull()) {
        throw new RequestException(ApiError.badRequest("'prompt' is required.", "prompt"));
      }
      if (p.isArray() && p.size() == 1 && p.get(0).isTextual()) {
        p = p.get(0);
      }
      if (p.isTextual()) {
        prompt = p.asText();
      } else if (p.isArray() && !p.isEmpty() && p.get(0).isIntegralNumber()) {
        ids = new int[p.size()];
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.length; i++) {
          ids[i] = p.get(i).asInt();
          sb.append("t").append(ids[i]).append(' ');
        }
        prompt = sb.toString();
      } else {
        throw new RequestException(ApiError.badRequest(
            "'prompt' must be a string, a list of one string, or a list of token ids.", "prompt"));
      }
      echo = prompt;
    }
    Integer maxTokens = optionalInt(body, chat && body.hasNonNull("max_completion_tokens")
        ? "max_completion_tokens" : "max_tokens");
    if (maxTokens != null && maxTokens < 1) {
      throw new RequestException(ApiError.badRequest("max_tokens must be at least 1, got " + maxTokens + ".",
          "max_tokens"));
    }
    JsonNode n = body.get("n");
    if (n != null && !n.isNull() && (!n.isIntegralNumber() || n.asInt() != 1)) {
      throw new RequestException(ApiError.badRequest("Only n=1 is supported by the simulator.", "n"));
    }
    boolean stream = bool(body, "stream");
    JsonNode so = body.get("stream_options");
    boolean includeUsage = so != null && so.isObject() && so.path("include_usage").asBoolean(false);
    List<String> stop = new ArrayList<>();
    JsonNode st = body.get("stop");
    if (st != null && !st.isNull()) {
      if (st.isTextual()) {
        stop.add(st.asText());
      } else if (st.isArray()) {
        for (JsonNode s : st) {
          if (!s.isTextual()) {
            throw new RequestException(ApiError.badRequest("'stop' must be a string or a list of strings.", "stop"));
          }
          stop.add(s.asText());
        }
      } else {
        throw new RequestException(ApiError.badRequest("'stop' must be a string or a list of strings.", "stop"));
      }
    }
    for (String f : new String[] {"temperature", "top_p", "frequency_penalty", "presence_penalty"}) {
      JsonNode v = body.get(f);
      if (v != null && !v.isNull() && !v.isNumber()) {
        throw new RequestException(ApiError.badRequest("'" + f + "' must be a number.", f));
      }
    }
    return new CompletionRequest(chat, model, prompt, echo, ids, maxTokens, stream, includeUsage, stop,
        bool(body, "ignore_eos"));
  }

  /**
   * A chat request made of {@code messages} by another API (Responses, Anthropic's Messages): rendered with the chat
   * template as a chat completion is.
   */
  static CompletionRequest ofMessages(String model, List<ChatMessage> messages, Integer maxTokens, boolean stream,
      List<String> stop, ModelTokenizer tokenizer) throws RequestException {
    if (messages.isEmpty()) {
      throw new RequestException(ApiError.badRequest("At least one message is required.", "messages"));
    }
    if (maxTokens != null && maxTokens < 1) {
      throw new RequestException(ApiError.badRequest("The output limit must be at least 1, got " + maxTokens + "."));
    }
    return new CompletionRequest(true, model, render(messages, tokenizer), echoSource(messages), null, maxTokens,
        stream, false, stop, false);
  }

  private static String render(List<ChatMessage> messages, ModelTokenizer tokenizer) throws RequestException {
    try {
      return tokenizer.renderChat(messages, true);
    } catch (ChatTemplateException e) {
      throw new RequestException(ApiError.badRequest(e.getMessage(), "messages"));
    }
  }

  /** What echo mode repeats: the last user message, else the last message. */
  private static String echoSource(List<ChatMessage> messages) {
    String echo = "";
    for (ChatMessage m : messages) {
      if ("user".equals(m.role())) {
        echo = m.content();
      }
    }
    return echo.isEmpty() ? messages.get(messages.size() - 1).content() : echo;
  }

  static String text(JsonNode body, String field) throws RequestException {
    JsonNode v = body.get(field);
    if (!v.isTextual()) {
      throw new RequestException(ApiError.badRequest("'" + field + "' must be a string.", field));
    }
    return v.asText();
  }

  static Integer optionalInt(JsonNode body, String field) throws RequestException {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isIntegralNumber()) {
      throw new RequestException(ApiError.badRequest("'" + field + "' must be an integer.", field));
    }
    return v.asInt();
  }

  static boolean bool(JsonNode body, String field) throws RequestException {
    JsonNode v = body.get(field);
    if (v == null || v.isNull()) {
      return false;
    }
    if (!v.isBoolean()) {
      throw new RequestException(ApiError.badRequest("'" + field + "' must be a boolean.", field));
    }
    return v.asBoolean();
  }

  /** A request the simulator answers with an error. */
  static final class RequestException extends Exception {
    final ApiError error;

    RequestException(ApiError error) {
      super(error.message(), null, false, false);
      this.error = error;
    }
  }
}
