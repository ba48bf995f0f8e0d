package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.tokenizer.ChatMessage;
import dev.modelplane.common.tokenizer.ChatRequests;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * Anthropic's Messages API ({@code POST /v1/messages}, {@code /v1/messages/count_tokens}) as vLLM serves it:
 * {@code system} and {@code messages} (string content or text blocks) are rendered with the chat template;
 * {@code model} and {@code max_tokens} are required; {@code stop_sequences} stop the output ({@code stop_reason}
 * {@code stop_sequence}, naming it). A stream sends
 * Anthropic's events ({@code message_start} … {@code message_stop}); errors have Anthropic's shape
 * ({@link ApiError#toAnthropicJson}).
 */
final class MessagesApi {
  private MessagesApi() {
  }

  /** The chat request a Messages request amounts to. */
  static CompletionRequest parse(JsonNode body, Rank rank) throws CompletionRequest.RequestException {
    List<ChatMessage> messages = messages(body); // checks the body and its model first
    JsonNode max = body.get("max_tokens");
    if (max == null || !max.isIntegralNumber()) {
      throw bad("max_tokens: Field required (an integer).");
    }
    List<String> stop = new ArrayList<>();
    JsonNode sequences = body.get("stop_sequences");
    if (sequences != null && sequences.isArray()) {
      for (JsonNode s : sequences) {
        stop.add(s.asText());
      }
    }
    return CompletionRequest.ofMessages(body.get("model").asText(), messages, max.asInt(),
        CompletionRequest.bool(body, "stream"), stop, rank.tokenizer);
  }

  /** {@code /v1/messages/count_tokens}: the prompt's tokens, as the request would be prefilled. */
  static String countTokens(JsonNode body, Rank rank) throws CompletionRequest.RequestException {
    List<ChatMessage> messages = messages(body); // checks the body and its model first
    CompletionRequest r = CompletionRequest.ofMessages(body.get("model").asText(), messages, null, false, List.of(),
        rank.tokenizer);
    return Rank.JSON.createObjectNode().put("input_tokens", rank.tokenizer.encode(r.prompt(), false).length)
        .toString();
  }

  /** The system prompt, then the conversation. */
  private static List<ChatMessage> messages(JsonNode body) throws CompletionRequest.RequestException {
    if (!body.isObject()) {
      throw bad("The request body must be a JSON object.");
    }
    if (!body.path("model").isTextual()) {
      throw bad("model: Field required (a string).");
    }
    List<ChatMessage> messages = new ArrayList<>();
    JsonNode system = body.get("system");
    if (system != null && system.isTextual()) {
      messages.add(new ChatMessage("system", system.asText()));
    } else if (system != null && system.isArray()) {
      StringBuilder sb = new StringBuilder();
      for (JsonNode block : system) {
        if (!sb.isEmpty()) {
          sb.append('\n');
        }
        sb.append(block.path("text").asText(""));
      }
      messages.add(new ChatMessage("system", sb.toString()));
    }
    try {
      messages.addAll(ChatRequests.messages(body));
    } catch (IllegalArgumentException e) {
      throw bad("messages: " + e.getMessage());
    }
    return messages;
  }

  private static CompletionRequest.RequestException bad(String message) {
    return new CompletionRequest.RequestException(ApiError.badRequest(message));
  }

  /** Writes one message. */
  static final class Writer extends EventWriter {
    Writer(Rank rank, Rank.Prepared p, HttpServerResponse resp, Context ctx) {
      super(rank.newId("msg_"), p, resp, ctx);
    }

    @Override
    String opening(int cachedTokens) {
      ObjectNode message = message(null, null);
      message.set("usage", usage(p.promptTokens(), cachedTokens, 0));
      ObjectNode block = Rank.JSON.createObjectNode().put("type", "text").put("text", "");
      return event("message_start", typed("message_start").set("message", message))
          + event("content_block_start", typed("content_block_start").put("index", 0).set("content_block", block))
          + event("ping", typed("ping"));
    }

    @Override
    String token(Sequence seq, int index) {
      ObjectNode delta = Rank.JSON.createObjectNode().put("type", "text_delta").put("text", seq.output.get(index));
      return event("content_block_delta", typed("content_block_delta").put("index", 0).set("delta", delta));
    }

    @Override
    String closing(Sequence seq, Done done) {
      ObjectNode delta = typed("message_delta");
      ObjectNode stop = delta.putObject("delta").put("stop_reason", stopReason(seq));
      stop.put("stop_sequence", stopSequence(seq));
      delta.set("usage", usage(seq.promptLen, done.cachedTokens(), done.generated()));
      return event("content_block_stop", typed("content_block_stop").put("index", 0))
          + event("message_delta", delta) + event("message_stop", typed("message_stop"));
    }

    @Override
    String body(Sequence seq, Done done) {
      ObjectNode message = message(seq, done);
      message.set("usage", usage(seq.promptLen, done.cachedTokens(), done.generated()));
      return message.toString();
    }

    private static ObjectNode typed(String type) {
      return Rank.JSON.createObjectNode().put("type", type);
    }

    /** The message: no content and no stop reason until {@code seq} has finished. */
    private ObjectNode message(Sequence seq, Done done) {
      ObjectNode m = typed("message").put("id", id).put("role", "assistant").put("model", p.model());
      var content = m.putArray("content");
      if (seq == null) {
        return m.putNull("stop_reason").putNull("stop_sequence");
      }
      content.addObject().put("type", "text").put("text", generatedText(seq, done.generated()));
      return m.put("stop_reason", stopReason(seq)).put("stop_sequence", stopSequence(seq));
    }

    /**
     * Anthropic counts tokens read from the cache apart from the other input tokens, the same way in
     * {@code message_start} and at the end.
     */
    private static ObjectNode usage(int promptTokens, int cachedTokens, int outputTokens) {
      return Rank.JSON.createObjectNode().put("input_tokens", promptTokens - cachedTokens)
          .put("cache_creation_input_tokens", 0).put("cache_read_input_tokens", cachedTokens)
          .put("output_tokens", outputTokens);
    }

    private String stopReason(Sequence seq) {
      return "length".equals(seq.finishReason) ? "max_tokens"
          : stopSequence(seq) != null ? "stop_sequence" : "end_turn";
    }

    /** The stop sequence that ended the message, null when none did. */
    private String stopSequence(Sequence seq) {
      return "length".equals(seq.finishReason) ? null : p.output().stopSequence();
    }
  }
}
