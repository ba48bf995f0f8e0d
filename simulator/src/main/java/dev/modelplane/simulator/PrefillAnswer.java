package dev.modelplane.simulator;

import io.vertx.core.Context;
import io.vertx.core.http.HttpServerResponse;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Answers a pooling request ({@link Rank.Pooled}) once the engine has prefilled every one of its inputs: each is a
 * sequence of one output token, so it costs what a completion's prefill costs and leaves its prefix in the KV cache.
 * The body is decided up front; the engine only decides when it is sent.
 */
final class PrefillAnswer implements Sequence.Listener {
  private final HttpServerResponse resp;
  private final ResponseWriter.Outbox outbox;
  private final String answer;
  private final AtomicInteger remaining;

  PrefillAnswer(HttpServerResponse resp, Context ctx, String answer, int inputs) {
    this.resp = resp;
    this.outbox = ResponseWriter.Outbox.of(ctx);
    this.answer = answer;
    this.remaining = new AtomicInteger(inputs);
  }

  @Override
  public void onToken(Sequence seq, int index) {
  }

  @Override
  public void onFinish(Sequence seq, String finishReason) {
    if ("abort".equals(finishReason) || remaining.decrementAndGet() != 0) {
      return;
    }
    outbox.post(() -> {
      if (!resp.ended() && !resp.closed()) {
        resp.putHeader("content-type", "application/json").end(answer);
      }
    });
  }
}
