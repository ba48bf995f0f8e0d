package dev.modelplane.common.tracing;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.util.Map;
import java.util.function.BiConsumer;

/** W3C trace context ({@code traceparent}, {@code tracestate}) in and out of header maps with lower-case names. */
public final class TraceHeaders {
  public static final String TRACEPARENT = "traceparent";

  private static final TextMapGetter<Map<String, String>> MAP_GETTER = new TextMapGetter<>() {
    @Override
    public Iterable<String> keys(Map<String, String> carrier) {
      return carrier.keySet();
    }

    @Override
    public String get(Map<String, String> carrier, String key) {
      return carrier == null ? null : carrier.get(key);
    }
  };
  private static final TextMapSetter<BiConsumer<String, String>> SETTER = (carrier, k, v) -> carrier.accept(k, v);

  private TraceHeaders() {
  }

  /** The context of the incoming {@code traceparent} in {@code headers}; the root context when there is none. */
  public static Context extract(OpenTelemetry otel, Map<String, String> headers) {
    return otel.getPropagators().getTextMapPropagator().extract(Context.root(), headers, MAP_GETTER);
  }

  /** Writes {@code context}'s trace headers through {@code put} (nothing when it has no valid span). */
  public static void inject(OpenTelemetry otel, Context context, BiConsumer<String, String> put) {
    otel.getPropagators().getTextMapPropagator().inject(context, put, SETTER);
  }
}
