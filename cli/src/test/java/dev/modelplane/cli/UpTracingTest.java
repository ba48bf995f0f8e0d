package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code up --tracing-endpoint}: what each process gets, and the note when a running one was started otherwise. */
class UpTracingTest {
  @TempDir
  Path dir;

  @Test
  void theEndpointBecomesTheStandardVariablesAndTheRoutersFlag() {
    UpTracing t = UpTracing.of("http://127.0.0.1:4318/");
    assertThat(t.env("modelplane-router")).containsEntry("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318/")
        .containsEntry("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318/v1/traces")
        .containsEntry("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf")
        .containsEntry("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf")
        .containsEntry("OTEL_TRACES_SAMPLER", "parentbased_always_on")
        .containsEntry("OTEL_SERVICE_NAME", "modelplane-router");
    assertThat(t.env(null)).doesNotContainKey("OTEL_SERVICE_NAME");
    assertThat(t.routerArgs()).containsExactly("--tracing");
    assertThat(UpTracing.of(null).env("x")).isEmpty();
    assertThat(UpTracing.of(null).routerArgs()).isEmpty();
  }

  @Test
  void aReusedClusterStartedWithoutTracingIsNamed() throws Exception {
    UpTracing.of(null).recordStarted(dir, true);
    StringWriter out = new StringWriter();
    UpTracing.of("http://127.0.0.1:4318").noteReused(dir, true, new PrintWriter(out, true));
    assertThat(out.toString()).contains("started without tracing").contains("modelplane down");

    UpTracing.of("http://127.0.0.1:4318").recordStarted(dir, false);
    StringWriter same = new StringWriter();
    UpTracing.of("http://127.0.0.1:4318").noteReused(dir, false, new PrintWriter(same, true));
    assertThat(same.toString()).isEmpty();
  }

  @Test
  void theOperatorTracesWithTheFlagOrAnEndpointVariable() {
    assertThat(OperatorCommand.tracingSettings(false, Map.of()).enabled()).isFalse();
    assertThat(OperatorCommand.tracingSettings(true, Map.of()).enabled()).isTrue();
    assertThat(OperatorCommand.tracingSettings(false, Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:4318"))
        .serviceName()).isEqualTo("modelplane-operator");
  }
}
