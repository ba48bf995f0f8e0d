package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.tokenizer.ChatMessage;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;

/**
 * OpenAI's Responses API ({@code POST /v1/responses}), stateless as vLLM serves it: {@code instructions} and
 * {@code input} (a string, or message items whose content is a string or text parts) become chat messages rendered
 * with the chat template; the answer is one assistant message. A stream sends the API's events, from
 * {@code response.created} to {@code response.completed} ({@code response.incomplete} when cut by
 * {@code max_output_tokens}), each with its {@code sequence_number}.
 */
final class ResponsesApi {
  private ResponsesApi() {
  }

  /** The chat request a Responses request amounts to. */
  static CompletionRequest parse(JsonNode body, Rank rank) throws CompletionRequest.RequestException {
    if (!body.isObject()) {
      throw bad("The request body must be a JSON object.", null);
    }
    List<ChatMessage> messages = new ArrayList<>();
    JsonNode instructions = body.get("instructions");
    if (instructions != null && instructions.isTextual()) {
      messages.add(new ChatMessage("system", instructions.asText()));
    }
    JsonNode input = body.get("input");
    if (input != null && input.isTextual()) {
      messages.add(new ChatMessage("user", input.asText()));
    } else if (input != null && input.isArray()) {
      for (JsonNode item : input) {
        if (item.path("role").isTextual()) {
          messages.add(new ChatMessage(item.get("role").asText(), text(item.get("content"))));
        }
      }
    } else {
      throw bad("'input' must be a string or a list of input items.", "input");
    }
    String model = body.path("model").isTextual() ? body.get("model").asText() : null;
    return CompletionRequest.ofMessages(model, messages, CompletionRequest.optionalInt(body, "max_output_tokens"),
        CompletionRequest.bool(body, "stream"), List.of(), rank.tokenizer);
  }

  /** A message item's content as text: a string, or its text parts joined by newlines. */
  private static String text(JsonNode content) throws CompletionRequest.RequestException {
    if (content == null || content.isNull()) {
      return "";
    }
    if (content.isTextual()) {
      return content.asText();
    }
    if (!content.isArray()) {
      throw bad("An input item's 'content' must be a string or a list of parts.", "input");
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode part : content) {
      if (part.path("text").isTextual()) {
        if (!sb.isEmpty()) {
          sb.append('\n');
        }
        sb.append(part.get("text").asText());
      }
    }
    return sb.toString();
  }

  private static CompletionRequest.RequestException bad(String message, String param) {
    return new CompletionRequest.RequestException(ApiError.badRequest(message, param));
  }

  /** Writes one response. */
  static final class Writer extends EventWriter {
    private final String messageId;
    private final long created;
    private int sequence;

    Writer(Rank rank, Rank.Prepared p, HttpServerResponse resp, Context ctx) {
      super(rank.newId("resp_"), p, resp, ctx);
      this.messageId = rank.newId("msg_");
      this.created = rank.created();
    }

    @Override
    String opening(int cachedTokens) {
      ObjectNode item = message("in_progress", null);
      ObjectNode part = Rank.JSON.createObjectNode().put("type", "output_text").put("text", "");
      part.putArray("annotations");
      return event("response.created", next("response.created").set("response", response(null, null)))
          + event("response.in_progress", next("response.in_progress").set("response", response(null, null)))
          + event("response.output_item.added", next("response.output_item.added").put("output_index", 0)
              .set("item", item))
          + event("response.content_part.added", located(next("response.content_part.added")).set("part", part));
    }

    @Override
    String token(Sequence seq, int index) {
      return event("response.output_text.delta", located(next("response.output_text.delta"))
          .put("delta", seq.output.get(index)));
    }

    /** Ends with {@code response.completed}, or {@code response.incomplete} when cut by the token limit. */
    @Override
    String closing(Sequence seq, Done done) {
      String text = generatedText(seq, done.generated());
      String last = truncated(seq) ? "response.incomplete" : "response.completed";
      return event("response.output_text.done", located(next("response.output_text.done")).put("text", text))
          + event("response.content_part.done", located(next("response.content_part.done")).set("part", part(text)))
          + event("response.output_item.done", next("response.output_item.done").put("output_index", 0)
              .set("item", message(itemStatus(seq), text)))
          + event(last, next(last).set("response", response(seq, done)));
    }

    private static boolean truncated(Sequence seq) {
      return "length".equals(seq.finishReason);
    }

    /** An output item cut by the token limit is {@code incomplete}, as its response is. */
    private static String itemStatus(Sequence seq) {
      return truncated(seq) ? "incomplete" : "completed";
    }

    @Override
    String body(Sequence seq, Done done) {
      return response(seq, done).toString();
    }

    private ObjectNode next(String type) {
      return Rank.JSON.createObjectNode().put("type", type).put("sequence_number", sequence++);
    }

    private ObjectNode located(ObjectNode event) {
      return event.put("item_id", messageId).put("output_index", 0).put("content_index", 0);
    }

    private static ObjectNode part(String text) {
      ObjectNode part = Rank.JSON.createObjectNode().put("type", "output_text").put("text", text);
      part.putArray("annotations");
      return part;
    }

    /** The assistant message; no content while in progress. */
    private ObjectNode message(String status, String text) {
      ObjectNode m = Rank.JSON.createObjectNode().put("type", "message").put("id", messageId).put("status", status)
          .put("role", "assistant");
      var content = m.putArray("content");
      if (text != null) {
        content.add(part(text));
      }
      return m;
    }

    /** The response object: in progress (no output, no usage) until {@code seq} has finished. */
    private ObjectNode response(Sequence seq, Done finished) {
      boolean done = seq != null;
      boolean truncated = done && truncated(seq);
      ObjectNode r = Rank.JSON.createObjectNode().put("id", id).put("object", "response").put("created_at", created)
          .put("status", !done ? "in_progress" : truncated ? "incomplete" : "completed").putNull("error");
      if (truncated) {
        r.putObject("incomplete_details").put("reason", "max_output_tokens");
      } else {
        r.putNull("incomplete_details");
      }
      r.put("model", p.model()).put("parallel_tool_calls", true).put("temperature", 1.0).put("tool_choice", "auto")
          .put("top_p", 1.0).putObject("metadata");
      r.putArray("tools");
      var output = r.putArray("output");
      if (!done) {
        r.putNull("usage");
        return r;
      }
      output.add(message(itemStatus(seq), generatedText(seq, finished.generated())));
      ObjectNode usage = r.putObject("usage").put("input_tokens", seq.promptLen);
      usage.putObject("input_tokens_details").put("cached_tokens", finished.cachedTokens());
      usage.put("output_tokens", finished.generated());
      usage.putObject("output_tokens_details").put("reasoning_tokens", 0);
      usage.put("total_tokens", seq.promptLen + finished.generated());
      return r;
    }
  }
}
