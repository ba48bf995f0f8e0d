package dev.modelplane.simulator;

import dev.modelplane.common.tracing.TraceHeaders;
import dev.modelplane.common.tracing.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The simulator's traces, as vLLM makes them: when a request finishes, one SERVER span {@code llm_request} over its
 * whole life (continuing the caller's {@code traceparent}) with vLLM's {@code gen_ai.*} attributes, and — beyond
 * vLLM — children {@code queue}, {@code prefill} and {@code decode} over the times the engine actually spent. Model
 * time is mapped to wall time through the clock's {@code --time-scale}. Off, nothing is built.
 */
final class SequenceSpans {
  /** The simulator's default {@code service.name}. */
  static final String SERVICE_NAME = "modelplane-simulator";
  static final SequenceSpans OFF = new SequenceSpans(Tracing.off());

  private final Tracing tracing;
  private final Tracer tracer;

  SequenceSpans(Tracing tracing) {
    this.tracing = tracing;
    this.tracer = tracing.tracer("dev.modelplane.simulator");
  }

  boolean enabled() {
    return tracing.enabled();
  }

  /** The caller's trace context from request headers; {@code null} when tracing is off. */
  Context parent(String traceparent, String tracestate) {
    if (!tracing.enabled()) {
      return null;
    }
    if (traceparent == null) {
      return Context.root();
    }
    Map<String, String> h = tracestate == null ? Map.of(TraceHeaders.TRACEPARENT, traceparent)
        : Map.of(TraceHeaders.TRACEPARENT, traceparent, "tracestate", tracestate);
    return TraceHeaders.extract(tracing.openTelemetry(), h);
  }

  /** Records {@code s}'s spans; it finished with {@code reason} at model time {@code now}. */
  void finished(Sequence s, String reason, long now, ModelClock clock, String model) {
    if (s.traceParent == null) {
      return;
    }
    Instant end = Instant.now();
    long endEpoch = end.getEpochSecond() * 1_000_000_000L + end.getNano();
    long arrival = wall(endEpoch, clock, now, s.arrivalNanos);
    Span request = tracer.spanBuilder("llm_request").setParent(s.traceParent).setSpanKind(SpanKind.SERVER)
        .setStartTimestamp(arrival, TimeUnit.NANOSECONDS).startSpan();
    if (request.isRecording()) {
      describe(request, s, reason, now, model);
      Context inside = s.traceParent.with(request);
      if (s.everAdmitted) {
        long admitted = wall(endEpoch, clock, now, s.admitNanos);
        child("queue", inside, arrival, admitted);
        if (s.firstTokenNanos >= 0) {
          long first = wall(endEpoch, clock, now, s.firstTokenNanos);
          child("prefill", inside, admitted, first);
          child("decode", inside, first, endEpoch);
        }
      }
      if ("abort".equals(reason)) {
        request.setStatus(StatusCode.ERROR, "aborted");
      }
    }
    request.end(endEpoch, TimeUnit.NANOSECONDS);
  }

  private static void describe(Span span, Sequence s, String reason, long now, String model) {
    span.setAttribute("gen_ai.response.model", model);
    span.setAttribute("gen_ai.request.id", s.requestId);
    span.setAttribute("gen_ai.request.max_tokens", s.maxTokensParam);
    span.setAttribute("gen_ai.request.n", 1);
    span.setAttribute("gen_ai.usage.prompt_tokens", s.promptLen);
    span.setAttribute("gen_ai.usage.completion_tokens", s.generated);
    span.setAttribute("gen_ai.response.finish_reasons", reason);
    span.setAttribute("gen_ai.latency.e2e", seconds(now - s.arrivalNanos));
    if (s.everAdmitted) {
      span.setAttribute("gen_ai.latency.time_in_queue", seconds(s.admitNanos - s.arrivalNanos));
      span.setAttribute("gen_ai.latency.time_in_model_inference", seconds(now - s.admitNanos));
    }
    if (s.firstTokenNanos >= 0) {
      span.setAttribute("gen_ai.latency.time_to_first_token", seconds(s.firstTokenNanos - s.arrivalNanos));
      span.setAttribute("gen_ai.latency.time_in_model_prefill", seconds(s.firstTokenNanos - s.admitNanos));
      span.setAttribute("gen_ai.latency.time_in_model_decode", seconds(now - s.firstTokenNanos));
    }
  }

  private void child(String name, Context parent, long startEpoch, long endEpoch) {
    tracer.spanBuilder(name).setParent(parent).setStartTimestamp(startEpoch, TimeUnit.NANOSECONDS).startSpan()
        .end(Math.max(startEpoch, endEpoch), TimeUnit.NANOSECONDS);
  }

  /** The wall-clock epoch nanos of model time {@code t}, given that model time {@code now} is {@code nowEpoch}. */
  private static long wall(long nowEpoch, ModelClock clock, long now, long t) {
    return nowEpoch - clock.wallNanos(now - t);
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  void close() {
    tracing.close();
  }
}
