package dev.modelplane.simulator;

import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes a generated response in the event shape of an API other than chat and text completions (OpenAI's
 * Responses, Anthropic's Messages): server-sent events per token when streaming, else one JSON body at the end. As
 * with {@link ResponseWriter}, the engine thread only hands the work to the request's event loop
 * ({@link ResponseWriter.Outbox}).
 */
abstract class EventWriter implements Sequence.Listener {
  final String id;
  final Rank.Prepared p;
  private final HttpServerResponse resp;
  private final ResponseWriter.Outbox outbox;

  EventWriter(String id, Rank.Prepared p, HttpServerResponse resp, Context ctx) {
    this.id = id;
    this.p = p;
    this.resp = resp;
    this.outbox = ResponseWriter.Outbox.of(ctx);
  }

  /** The events opening a stream, sent when its head is written. */
  abstract String opening();

  /** The events of output token {@code index}. */
  abstract String token(Sequence seq, int index);

  /** The events closing a stream. */
  abstract String closing(Sequence seq);

  /** The whole body of a response that is not streamed. */
  abstract String body(Sequence seq);

  /** The text generated so far. */
  static String generatedText(Sequence seq) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < seq.generated; i++) {
      text.append(seq.output.get(i));
    }
    return text.toString();
  }

  /** One server-sent event with a name, as both APIs send them. */
  static String event(String name, com.fasterxml.jackson.databind.JsonNode data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  @Override
  public void onToken(Sequence seq, int index) {
    if (!p.request().stream()) {
      return;
    }
    String events = token(seq, index);
    outbox.post(() -> {
      if (!resp.ended() && !resp.closed()) {
        resp.write(events);
      }
    });
  }

  @Override
  public void onFinish(Sequence seq, String reason) {
    if ("abort".equals(reason)) {
      return;
    }
    String tail = p.request().stream() ? closing(seq) : body(seq);
    outbox.post(() -> {
      if (resp.ended() || resp.closed()) {
        return;
      }
      if (!p.request().stream()) {
        resp.putHeader("content-type", "application/json");
      }
      resp.end(tail);
    });
  }
}
