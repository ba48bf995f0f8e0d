package dev.modelplane.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.common.tracing.Tracing;
import dev.modelplane.common.tracing.TracingSettings;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestTracer;
import dev.modelplane.router.testing.RecordingPlugin;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** In ext_proc mode the trace goes on through Envoy: the header mutation carries the upstream span's traceparent. */
class ExtProcTracingTest {
  private static final String TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private final InMemorySpanExporter exporter = InMemorySpanExporter.create();
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    flow.shutdownNow();
  }

  private EnvoySimulator envoy(RequestTracer tracer) throws Exception {
    PoolRegistry pools = new PoolRegistry();
    pools.getOrCreate(PoolKey.STATIC).setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", 8000)));
    SchedulingSetup setup = RecordingPlugin.load();
    RouterMetrics metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    RequestDirector director = new RequestDirector(setup, metrics, System::nanoTime, flow);
    director.tracer(tracer);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new ExtProcService(director, pools, metrics, false)).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    return new EnvoySimulator(channel);
  }

  private static Map<String, String> setHeaders(ProcessingResponse r) {
    Map<String, String> out = new HashMap<>();
    for (HeaderValueOption o : r.getRequestHeaders().getResponse().getHeaderMutation().getSetHeadersList()) {
      out.put(o.getHeader().getKey(), o.getHeader().getRawValue().toStringUtf8());
    }
    return out;
  }

  private static ProcessingResponse oneRequest(EnvoySimulator envoy) throws Exception {
    envoy.requestHeaders(Map.of(":method", "POST", ":path", "/v1/completions", "x-request-id", "req-1",
        "traceparent", "00-" + TRACE_ID + "-00f067aa0ba902b7-01"), false);
    envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
    ProcessingResponse headers = envoy.next();
    envoy.next(); // body
    envoy.responseHeaders(Map.of(":status", "200"), "127.0.0.1:8000", false);
    envoy.next();
    envoy.responseBody("{}", true);
    envoy.next();
    envoy.halfClose();
    return headers;
  }

  @Test
  void theHeaderMutationCarriesTheUpstreamSpansTraceparent() throws Exception {
    TracingSettings on = TracingSettings.fromEnv(Map.of(), true, "r", null, "parentbased_always_on", 1);
    EnvoySimulator envoy = envoy(new RequestTracer(Tracing.withExporter(on, exporter)));
    Map<String, String> set = setHeaders(oneRequest(envoy));

    SpanData upstream = exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals("router.upstream"))
        .findFirst().orElseThrow();
    SpanData request = exporter.getFinishedSpanItems().stream().filter(s -> s.getName().equals("router.request"))
        .findFirst().orElseThrow();
    assertThat(set).containsEntry("traceparent", "00-" + TRACE_ID + "-" + upstream.getSpanId() + "-01");
    assertThat(request.getKind()).isEqualTo(SpanKind.SERVER);
    assertThat(request.getParentSpanId()).isEqualTo("00f067aa0ba902b7");
    assertThat(upstream.getParentSpanId()).isEqualTo(request.getSpanId());
    assertThat(exporter.getFinishedSpanItems()).extracting(SpanData::getName)
        .contains("router.parse", "router.admission", "router.schedule");
  }

  @Test
  void offAddsNoTraceparent() throws Exception {
    EnvoySimulator envoy = envoy(RequestTracer.OFF);
    assertThat(setHeaders(oneRequest(envoy))).doesNotContainKey("traceparent");
  }
}
