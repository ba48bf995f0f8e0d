package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.common.tracing.TracingSettings;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The simulator traces a request as vLLM does (llm_request, gen_ai.* attributes) plus queue/prefill/decode. */
class SimulatorTracingTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();

  private HttpResponse<String> complete(Simulator sim, String traceparent) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sim.port() + "/v1/completions"))
        .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(SimClient.completion("m", "hello there", 5, false)));
    if (traceparent != null) {
      b.header("traceparent", traceparent);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void aRequestMakesAnLlmRequestSpanWithVllmAttributesAndEngineChildren() throws Exception {
    InMemorySpanExporter exporter = InMemorySpanExporter.create();
    TracingSettings on = TracingSettings.fromEnv(Map.of(), true, SequenceSpans.SERVICE_NAME, null,
        "parentbased_always_on", 1);
    try (Simulator sim = Simulator.start(SimulatorConfig.of("m").host("127.0.0.1").port(0).seed(1)
        .timeScale(0.1), Tracing.withExporter(on, exporter))) {
      assertThat(complete(sim, "00-" + TRACE_ID + "-00f067aa0ba902b7-01").statusCode()).isEqualTo(200);
      Awaitility.await().until(() -> exporter.getFinishedSpanItems().size() >= 4);
      Map<String, SpanData> spans = exporter.getFinishedSpanItems().stream()
          .collect(Collectors.toMap(SpanData::getName, Function.identity()));
      SpanData request = spans.get("llm_request");
      assertThat(request.getKind()).isEqualTo(SpanKind.SERVER);
      assertThat(request.getTraceId()).isEqualTo(TRACE_ID);
      assertThat(request.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
      var a = request.getAttributes();
      assertThat(a.get(AttributeKey.stringKey("gen_ai.request.id"))).isNotEmpty();
      assertThat(a.get(AttributeKey.stringKey("gen_ai.response.model"))).isEqualTo("m");
      assertThat(a.get(AttributeKey.longKey("gen_ai.usage.prompt_tokens"))).isPositive();
      assertThat(a.get(AttributeKey.longKey("gen_ai.usage.completion_tokens"))).isEqualTo(5L);
      for (String k : new String[] {"gen_ai.latency.time_in_queue", "gen_ai.latency.time_to_first_token",
          "gen_ai.latency.e2e", "gen_ai.latency.time_in_model_prefill", "gen_ai.latency.time_in_model_decode"}) {
        assertThat(a.get(AttributeKey.doubleKey(k))).as(k).isNotNull().isGreaterThanOrEqualTo(0.0);
      }
      double e2e = a.get(AttributeKey.doubleKey("gen_ai.latency.e2e"));
      assertThat(a.get(AttributeKey.doubleKey("gen_ai.latency.time_to_first_token"))).isLessThanOrEqualTo(e2e);
      SpanData queue = spans.get("queue");
      SpanData prefill = spans.get("prefill");
      SpanData decode = spans.get("decode");
      for (SpanData child : new SpanData[] {queue, prefill, decode}) {
        assertThat(child.getParentSpanId()).isEqualTo(request.getSpanId());
        assertThat(child.getStartEpochNanos()).isGreaterThanOrEqualTo(request.getStartEpochNanos());
        assertThat(child.getEndEpochNanos()).isLessThanOrEqualTo(request.getEndEpochNanos());
      }
      assertThat(queue.getEndEpochNanos()).isEqualTo(prefill.getStartEpochNanos());
      assertThat(prefill.getEndEpochNanos()).isEqualTo(decode.getStartEpochNanos());
      // the decode span lasts the model's decode time, in wall time (time scale 0.1)
      double decodeSeconds = a.get(AttributeKey.doubleKey("gen_ai.latency.time_in_model_decode"));
      assertThat((decode.getEndEpochNanos() - decode.getStartEpochNanos()) / 1e9)
          .isCloseTo(decodeSeconds * 0.1, org.assertj.core.data.Offset.offset(1e-6));
    }
  }

  @Test
  void tracingIsOnWithTheVllmFlagOrTheTracesEndpointOnly() {
    SimulatorConfig plain = SimulatorConfig.of("m");
    assertThat(Simulator.tracingSettings(plain, Map.of()).enabled()).isFalse();
    assertThat(Simulator.tracingSettings(plain, Map.of("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://127.0.0.1:4318"))
        .enabled()).isTrue();
    SimulatorConfig flagged = SimulatorConfig.of("m");
    flagged.otlpTracesEndpoint = "http://127.0.0.1:4318";
    TracingSettings s = Simulator.tracingSettings(flagged, Map.of("OTEL_SERVICE_NAME", "vllm-a"));
    assertThat(s.enabled()).isTrue();
    assertThat(s.serviceName()).isEqualTo("vllm-a");
    assertThat(s.tracesEndpoint()).hasToString("http://127.0.0.1:4318/v1/traces");
    flagged.otlpTracesEndpoint = "127.0.0.1:4318";
    assertThatThrownBy(() -> Simulator.tracingSettings(flagged, Map.of()))
        .hasMessageContaining("--otlp-traces-endpoint=127.0.0.1:4318");
  }
}
