package dev.modelplane.router.request;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/** Small helpers for the router's spans. */
final class RequestSpans {
  private RequestSpans() {
  }

  /** Ends {@code span} as failed by {@code e} (its error code when a {@link RouterException}). */
  static void failed(Span span, RuntimeException e) {
    if (span.isRecording()) {
      if (e instanceof RouterException re) {
        span.setAttribute("error.type", re.code().code());
      }
      span.setStatus(StatusCode.ERROR, String.valueOf(e.getMessage()));
    }
    span.end();
  }
}
