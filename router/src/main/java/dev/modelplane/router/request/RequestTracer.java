package dev.modelplane.router.request;

import dev.modelplane.common.tracing.TraceHeaders;
import dev.modelplane.common.tracing.Tracing;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * Starts the router's per-request traces for both front ends. Off (the default) it hands out {@link RequestTrace#OFF}
 * and allocates nothing per request.
 */
public final class RequestTracer {
  /** The router's instrumentation scope name. */
  public static final String SCOPE = "dev.modelplane.router";
  /** The router's default {@code service.name}. */
  public static final String SERVICE_NAME = "modelplane-router";
  public static final RequestTracer OFF = new RequestTracer(Tracing.off());

  private final Tracing tracing;
  private final Tracer tracer;

  public RequestTracer(Tracing tracing) {
    this.tracing = tracing;
    this.tracer = tracing.tracer(SCOPE);
  }

  public boolean enabled() {
    return tracing.enabled();
  }

  /**
   * The SERVER span of one request named {@code name}, continuing the trace of the {@code traceparent} in
   * {@code headers} (lower-case names), started at {@code startEpochNanos} (0: now).
   */
  public RequestTrace start(String name, Map<String, String> headers, String method, String path) {
    if (!tracing.enabled()) {
      return RequestTrace.OFF;
    }
    Context parent = TraceHeaders.extract(tracing.openTelemetry(), headers);
    Span server = tracer.spanBuilder(name).setParent(parent).setSpanKind(SpanKind.SERVER).startSpan();
    if (server.isRecording()) {
      server.setAttribute("http.request.method", method == null ? "" : method);
      server.setAttribute("url.path", path == null ? "" : path);
    }
    return new RequestTrace(this, server, parent.with(server));
  }

  Tracer tracer() {
    return tracer;
  }

  void inject(Context context, BiConsumer<String, String> put) {
    TraceHeaders.inject(tracing.openTelemetry(), context, put);
  }
}
