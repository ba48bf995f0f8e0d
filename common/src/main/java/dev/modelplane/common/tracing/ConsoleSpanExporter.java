package dev.modelplane.common.tracing;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;
import java.util.Collection;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** {@code OTEL_TRACES_EXPORTER=console}: each finished span as one log line (for looking at traces without a backend). */
final class ConsoleSpanExporter implements SpanExporter {
  private static final Logger LOG = LoggerFactory.getLogger("dev.modelplane.tracing.spans");

  @Override
  public CompletableResultCode export(Collection<SpanData> spans) {
    for (SpanData s : spans) {
      LOG.atInfo().addKeyValue("trace_id", s.getTraceId()).addKeyValue("span_id", s.getSpanId())
          .addKeyValue("parent_id", s.getParentSpanId()).addKeyValue("kind", s.getKind())
          .addKeyValue("duration_us", (s.getEndEpochNanos() - s.getStartEpochNanos()) / 1000)
          .addKeyValue("attributes", s.getAttributes()).log(s.getName());
    }
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode flush() {
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }
}
