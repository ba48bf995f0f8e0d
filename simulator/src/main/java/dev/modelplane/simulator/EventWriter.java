package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;

/**
 * Writes a generated response in its API's shape (chat and text completions, OpenAI's Responses, Anthropic's
 * Messages): server-sent events per token when streaming, else one JSON body at the end. The engine thread only hands
 * the work to the request's event loop ({@link ResponseWriter.Outbox}).
 */
abstract class EventWriter implements Sequence.Listener {
  final String id;
  final Rank.Prepared p;
  private final HttpServerResponse resp;
  private final ResponseWriter.Outbox outbox;
  /** Whether the opening events were written; read and set on the event loop only. */
  private boolean opened;

  EventWriter(String id, Rank.Prepared p, HttpServerResponse resp, Context ctx) {
    this.id = id;
    this.p = p;
    this.resp = resp;
    this.outbox = ResponseWriter.Outbox.of(ctx);
  }

  /**
   * The events opening a stream, sent with its first token (or its closing events, when it has none), as a server
   * sends them once the prefill is over: so the time to the first byte is the time to the first token.
   *
   * @param cachedTokens prompt tokens found in the prefix cache
   */
  abstract String opening(int cachedTokens);

  /**
   * What the engine counted for a finished sequence, read on the engine thread that owns the counters, so that the
   * event loop builds every event, in order.
   *
   * @param generated output tokens produced
   * @param cachedTokens prompt tokens found in the prefix cache
   */
  record Done(int generated, int cachedTokens) {
  }

  /** The events of output token {@code index}. */
  abstract String token(Sequence seq, int index);

  /** The events closing a stream. */
  abstract String closing(Sequence seq, Done done);

  /** The whole body of a response that is not streamed. */
  abstract String body(Sequence seq, Done done);

  /** The text of the first {@code generated} output tokens. */
  static String generatedText(Sequence seq, int generated) {
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < generated; i++) {
      text.append(seq.output.get(i));
    }
    return text.toString();
  }

  /** One server-sent event with a name, as both APIs send them. */
  static String event(String name, JsonNode data) {
    return "event: " + name + "\ndata: " + data + "\n\n";
  }

  @Override
  public void onToken(Sequence seq, int index) {
    if (!p.request().stream()) {
      return;
    }
    int cached = seq.cachedTokens; // read on the engine thread, which owns it
    outbox.post(() -> {
      if (!resp.ended() && !resp.closed()) {
        resp.write(openingOnce(cached) + token(seq, index));
      }
    });
  }

  @Override
  public void onFinish(Sequence seq, String reason) {
    if ("abort".equals(reason)) {
      return;
    }
    Done done = new Done(seq.generated, seq.cachedTokens);
    outbox.post(() -> {
      if (resp.ended() || resp.closed()) {
        return;
      }
      if (!p.request().stream()) {
        resp.putHeader("content-type", "application/json");
      }
      resp.end(p.request().stream() ? openingOnce(done.cachedTokens()) + closing(seq, done) : body(seq, done));
    });
  }

  /** The opening events the first time, nothing after. */
  private String openingOnce(int cachedTokens) {
    if (opened) {
      return "";
    }
    opened = true;
    return opening(cachedTokens);
  }
}
