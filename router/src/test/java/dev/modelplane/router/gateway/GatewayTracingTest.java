package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.common.tracing.TracingSettings;
import dev.modelplane.router.testing.FakeModelServer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/** The gateway's spans for one request against a fake model server, and none when tracing is off. */
class GatewayTracingTest extends GatewayHarness {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private static final String PARENT = "00-" + TRACE_ID + "-00f067aa0ba902b7-01";
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();

  private static TracingSettings alwaysOn() {
    return TracingSettings.fromEnv(Map.of(), true, "modelplane-router", null, "parentbased_always_on", 1);
  }

  @Test
  void oneRequestMakesAServerSpanWithChildrenAndTheUpstreamSeesTheSameTrace() throws Exception {
    FakeModelServer upstream = server("a");
    router(upstream.hostPort(), null, 1 << 20).tracing(Tracing.withExporter(alwaysOn(), exporter));

    assertThat(post("/v1/chat/completions", chat("hello", false), "traceparent", PARENT).statusCode())
        .isEqualTo(200);

    Awaitility.await().until(() -> exporter.getFinishedSpanItems().stream()
        .anyMatch(s -> s.getName().equals("router.request")));
    Map<String, SpanData> spans = exporter.getFinishedSpanItems().stream()
        .collect(Collectors.toMap(SpanData::getName, Function.identity(), (a, b) -> a));
    assertThat(spans).containsKeys("router.request", "router.parse", "router.admission", "router.schedule",
        "router.upstream");
    SpanData server = spans.get("router.request");
    assertThat(server.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(server.getTraceId()).isEqualTo(TRACE_ID);
    assertThat(server.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
    assertThat(server.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(200L);
    assertThat(server.getAttributes().get(AttributeKey.stringKey("gen_ai.request.model"))).isEqualTo("m");
    for (String child : List.of("router.parse", "router.admission", "router.schedule", "router.upstream")) {
      assertThat(spans.get(child).getParentSpanId()).as(child).isEqualTo(server.getSpanId());
      assertThat(spans.get(child).getTraceId()).as(child).isEqualTo(TRACE_ID);
    }
    SpanData schedule = spans.get("router.schedule");
    assertThat(schedule.getAttributes().get(AttributeKey.stringKey("modelplane.endpoint")))
        .isEqualTo(upstream.hostPort());
    assertThat(schedule.getAttributes().get(AttributeKey.longKey("modelplane.scheduling.candidates"))).isEqualTo(1L);
    assertThat(schedule.getAttributes().get(AttributeKey.stringKey("modelplane.scheduling.profile"))).isNotEmpty();
    assertThat(schedule.getAttributes().asMap().keySet().stream().map(AttributeKey::getKey))
        .anyMatch(k -> k.startsWith("modelplane.scheduling.score."));
    SpanData call = spans.get("router.upstream");
    assertThat(call.getKind()).isEqualTo(SpanKind.CLIENT);
    assertThat(call.getAttributes().get(AttributeKey.longKey("http.response.status_code"))).isEqualTo(200L);
    assertThat(call.getEvents()).extracting(e -> e.getName()).contains("first_byte", "stream_end");

    String sent = upstream.headers().get(0).get("traceparent");
    assertThat(sent).isEqualTo("00-" + TRACE_ID + "-" + call.getSpanId() + "-01");
    assertThat(upstream.headers().get(0).getAll("traceparent")).hasSize(1);
  }

  @Test
  void aRequestWithoutTraceparentStartsANewTrace() throws Exception {
    FakeModelServer upstream = server("a");
    router(upstream.hostPort(), null, 1 << 20).tracing(Tracing.withExporter(alwaysOn(), exporter));
    assertThat(post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"x\"}").statusCode()).isEqualTo(200);
    Awaitility.await().until(() -> exporter.getFinishedSpanItems().stream()
        .anyMatch(s -> s.getName().equals("router.request")));
    SpanData server = exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals("router.request"))
        .findFirst().orElseThrow();
    assertThat(server.getParentSpanContext().isValid()).isFalse();
    assertThat(upstream.headers().get(0).get("traceparent")).contains(server.getTraceId());
  }

  @Test
  void offByDefaultSendsTheClientsTraceparentOnUntouched() throws Exception {
    FakeModelServer upstream = server("a");
    router(upstream.hostPort(), null, 1 << 20);
    assertThat(post("/v1/chat/completions", chat("hello", false), "traceparent", PARENT).statusCode())
        .isEqualTo(200);
    assertThat(upstream.headers().get(0).get("traceparent")).isEqualTo(PARENT);
    assertThat(exporter.getFinishedSpanItems()).isEmpty();
  }
}
