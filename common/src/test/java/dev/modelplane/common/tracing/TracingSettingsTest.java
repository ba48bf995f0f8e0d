package dev.modelplane.common.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TracingSettingsTest {
  private static TracingSettings read(Map<String, String> env) {
    return TracingSettings.fromEnv(env, true, "svc", null, "parentbased_always_on", 1.0);
  }

  @Test
  void defaultsAndStandardVariables() {
    TracingSettings s = read(Map.of());
    assertThat(s.serviceName()).isEqualTo("svc");
    assertThat(s.tracesEndpoint()).hasToString("http://localhost:4318/v1/traces");
    assertThat(s.sampler()).isEqualTo("parentbased_always_on");

    s = read(Map.of("OTEL_SERVICE_NAME", "router", "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318/",
        "OTEL_TRACES_SAMPLER", "parentbased_traceidratio", "OTEL_TRACES_SAMPLER_ARG", "0.25",
        "OTEL_RESOURCE_ATTRIBUTES", "k8s.namespace.name=ns,team=a%20b", "OTEL_TRACES_EXPORTER", "console"));
    assertThat(s.serviceName()).isEqualTo("router");
    assertThat(s.tracesEndpoint()).hasToString("http://127.0.0.1:4318/v1/traces");
    assertThat(s.ratio()).isEqualTo(0.25);
    assertThat(s.exporter()).isEqualTo(TracingSettings.Exporter.CONSOLE);
    assertThat(s.resourceAttributes()).containsEntry("k8s.namespace.name", "ns").containsEntry("team", "a b");
  }

  @Test
  void tracesEndpointIsUsedAsIsAndTheFlagWins() {
    assertThat(read(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c:9/x")).tracesEndpoint())
        .hasToString("http://c:9/x");
    assertThat(TracingSettings.fromEnv(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://a:1"), true, "s",
        "http://b:2", "always_on", 1).tracesEndpoint()).hasToString("http://b:2/v1/traces");
  }

  @Test
  void grpcUsesTheEndpointAsIsAndDefaultsToPort4317() {
    TracingSettings s = read(Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"));
    assertThat(s.protocol()).isEqualTo(TracingSettings.Protocol.GRPC);
    assertThat(s.tracesEndpoint()).hasToString("http://localhost:4317");
    assertThat(read(Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_ENDPOINT",
        "https://collector:4317")).tracesEndpoint()).hasToString("https://collector:4317");
    assertThat(read(Map.of("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc", "OTEL_EXPORTER_OTLP_PROTOCOL",
        "http/protobuf", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://c:4317")).tracesEndpoint())
        .hasToString("http://c:4317");
    assertThat(TracingSettings.fromEnv(Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), true, "s", "http://b:2",
        "always_on", 1).tracesEndpoint()).hasToString("http://b:2");
    assertThat(read(Map.of()).protocol()).isEqualTo(TracingSettings.Protocol.HTTP_PROTOBUF);
    // Another exporter does not read the OTLP protocol at all.
    assertThat(read(Map.of("OTEL_TRACES_EXPORTER", "console", "OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"))
        .exporter()).isEqualTo(TracingSettings.Exporter.CONSOLE);
  }

  @Test
  void offIgnoresTheEnvironment() {
    TracingSettings s = TracingSettings.fromEnv(Map.of("OTEL_TRACES_SAMPLER", "nonsense"), false, "s", null,
        "always_on", 1);
    assertThat(s.enabled()).isFalse();
    assertThat(Tracing.start(s).enabled()).isFalse();
  }

  @Test
  void badSettingsNameTheVariable() {
    assertThatThrownBy(() -> read(Map.of("OTEL_TRACES_SAMPLER", "sometimes")))
        .hasMessageContaining("OTEL_TRACES_SAMPLER=sometimes");
    assertThatThrownBy(() -> read(Map.of("OTEL_TRACES_SAMPLER_ARG", "1.5")))
        .hasMessageContaining("OTEL_TRACES_SAMPLER_ARG=1.5").hasMessageContaining("[0, 1]");
    assertThatThrownBy(() -> read(Map.of("OTEL_TRACES_SAMPLER_ARG", "half")))
        .hasMessageContaining("OTEL_TRACES_SAMPLER_ARG=half");
    assertThatThrownBy(() -> read(Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "localhost:4318")))
        .hasMessageContaining("OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318");
    assertThatThrownBy(() -> read(Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://bad host/")))
        .hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    assertThatThrownBy(() -> read(Map.of("OTEL_TRACES_EXPORTER", "zipkin")))
        .hasMessageContaining("OTEL_TRACES_EXPORTER=zipkin");
    assertThatThrownBy(() -> read(Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json")))
        .hasMessageContaining("OTEL_EXPORTER_OTLP_PROTOCOL=http/json").hasMessageContaining("grpc");
    assertThatThrownBy(() -> read(Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
        "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "thrift")))
        .hasMessageContaining("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=thrift");
    assertThatThrownBy(() -> read(Map.of("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc",
        "OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4317")))
        .hasMessageContaining("OTEL_EXPORTER_OTLP_ENDPOINT=collector:4317");
    assertThatThrownBy(() -> read(Map.of("OTEL_RESOURCE_ATTRIBUTES", "novalue")))
        .hasMessageContaining("OTEL_RESOURCE_ATTRIBUTES");
  }

  @Test
  void offMakesNoRecordingSpansAndStartsNoThread() {
    Tracing off = Tracing.start(TracingSettings.off());
    Span span = off.tracer("t").spanBuilder("x").startSpan();
    assertThat(span.isRecording()).isFalse();
    span.end();
    off.close();
    assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().contains("BatchSpanProcessor"));
  }

  @Test
  void traceparentRoundTripsThroughHeaders() {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    try (Tracing t = Tracing.withExporter(read(Map.of()), exporter)) {
      Span span = t.tracer("t").spanBuilder("x").startSpan();
      Map<String, String> headers = new HashMap<>();
      TraceHeaders.inject(t.openTelemetry(), Context.root().with(span), headers::put);
      assertThat(headers.get(TraceHeaders.TRACEPARENT)).contains(span.getSpanContext().getTraceId());
      Context back = TraceHeaders.extract(t.openTelemetry(), headers);
      assertThat(Span.fromContext(back).getSpanContext().getSpanId()).isEqualTo(span.getSpanContext().getSpanId());
      span.end();
      assertThat(exporter.getFinishedSpanItems()).hasSize(1); // before close: shutting down empties the exporter
      assertThat(exporter.getFinishedSpanItems().get(0).getResource().getAttributes().asMap().toString())
          .contains("svc");
    }
  }
}
