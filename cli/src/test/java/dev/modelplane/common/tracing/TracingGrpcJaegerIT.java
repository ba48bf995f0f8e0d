package dev.modelplane.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.testsupport.JaegerServer;
import io.opentelemetry.api.trace.Span;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A span exported with {@code OTEL_EXPORTER_OTLP_PROTOCOL=grpc} arrives in a real Jaeger through its OTLP/gRPC port.
 * An integration test of the last module, so the build does not wait for Jaeger (built in the background by
 * {@code hack/test}) before the earlier modules' tests.
 */
class TracingGrpcJaegerIT {
  @TempDir
  Path dir;

  @Test
  void spanExportedOverGrpcIsReadBackFromJaeger() throws Exception {
    try (JaegerServer jaeger = JaegerServer.startOrSkip(dir)) {
      TracingSettings settings = TracingSettings.fromEnv(Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
          "OTEL_EXPORTER_OTLP_ENDPOINT", jaeger.otlpGrpcEndpoint().toString(),
          "OTEL_SERVICE_NAME", "grpc-export-test"), true, "unused", null, "always_on", 1);
      assertThat(settings.tracesEndpoint()).isEqualTo(jaeger.otlpGrpcEndpoint());
      String traceId;
      try (Tracing tracing = Tracing.start(settings)) {
        Span span = tracing.tracer("test").spanBuilder("exported-over-grpc").startSpan();
        traceId = span.getSpanContext().getTraceId();
        span.setAttribute("answer", 42);
        span.end();
      } // close() flushes the batch and stops the channel

      await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
          assertThat(jaeger.traces("grpc-export-test", 10)).as(jaeger.logTail())
              .contains(traceId).contains("exported-over-grpc").contains("answer"));
    }
  }
}
