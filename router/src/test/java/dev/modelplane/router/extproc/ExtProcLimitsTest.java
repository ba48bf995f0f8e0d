package dev.modelplane.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestLimits;
import dev.modelplane.router.scheduling.RequestJson;
import io.envoyproxy.envoy.service.ext_proc.v3.ImmediateResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The ext_proc server's limits: the body cap both ways, and no routing before endpoint discovery has synced. */
class ExtProcLimitsTest {
  private static final int CAP = 4096;

  private final PoolRegistry pools = new PoolRegistry();
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private RouterMetrics metrics;
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    pools.getOrCreate(PoolKey.STATIC).setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000)));
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null)
        .load(ConfigLoader.DEFAULT_CONFIG);
    metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    RequestDirector director = new RequestDirector(setup, metrics, System::nanoTime, flow);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new ExtProcService(director, pools, metrics, false, CAP)).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    flow.shutdownNow();
  }

  private static Map<String, String> headers() {
    return Map.of(":method", "POST", ":path", "/v1/completions", ":authority", "gw", "content-type",
        "application/json");
  }

  @Test
  void aRequestBodyOverTheCapIsAnsweredWithAnImmediate413() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers(), false);
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"" + "x".repeat(CAP / 2), false);
      assertThat(envoy.pending()).isZero();
      envoy.requestBody("x".repeat(CAP), false);
      ProcessingResponse r = envoy.next();
      assertThat(r.hasImmediateResponse()).isTrue();
      ImmediateResponse ir = r.getImmediateResponse();
      assertThat(ir.getStatus().getCodeValue()).isEqualTo(413);
      assertThat(ir.getBody().toStringUtf8()).contains("\"type\":\"invalid_request_error\"")
          .contains("request body exceeds the limit of " + CAP + " bytes");
      assertThat(envoy.completedNext()).isTrue();
    }
    assertThat(metrics.scrape()).contains("modelplane_extproc_streams_total{outcome=\"immediate_413\"} 1");
  }

  @Test
  void limitsOnAnthropicsPathAnswerInAnthropicsShape() throws Exception {
    Map<String, String> messages = Map.of(":method", "POST", ":path", "/v1/messages", ":authority", "gw",
        "content-type", "application/json");
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(messages, false);
      envoy.requestBody("{\"model\":\"m\",\"messages\":[\"" + "x".repeat(CAP * 2), false);
      ImmediateResponse ir = envoy.next().getImmediateResponse();
      assertThat(ir.getStatus().getCodeValue()).isEqualTo(413);
      assertThat(ir.getBody().toStringUtf8()).startsWith("{\"type\":\"error\",\"error\":{\"type\":"
          + "\"request_too_large\"");
    }
    RequestDirector director = director(RequestLimits.defaults().withMaxBodyBytes(CAP)
        .withMaxInflightBytes(CAP + CAP / 2));
    ManagedChannel ch = serverWith(director);
    try (EnvoySimulator first = new EnvoySimulator(ch); EnvoySimulator second = new EnvoySimulator(ch)) {
      first.requestHeaders(headers(), false);
      first.requestBody("{\"model\":\"m\",\"prompt\":\"" + "x".repeat(3000), false);
      second.requestHeaders(messages, false);
      second.requestBody("{\"model\":\"m\",\"messages\":[\"" + "y".repeat(3500) + "\"]}", true);
      ImmediateResponse ir = second.next().getImmediateResponse();
      assertThat(ir.getStatus().getCodeValue()).isEqualTo(429);
      assertThat(ir.getBody().toStringUtf8()).startsWith("{\"type\":\"error\",\"error\":{\"type\":"
          + "\"rate_limit_error\"");
    }
    ch.shutdownNow();
  }

  @Test
  void aResponseBodyOverTheCapStreamsThroughUnbufferedAndUnchanged() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      Map<String, String> rewritten = new java.util.HashMap<>(headers());
      rewritten.put("x-gateway-model-name-rewrite", "m-v2"); // so that the response is buffered to rewrite it back
      envoy.requestHeaders(rewritten, false);
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      envoy.next(); // request headers response
      envoy.next(); // request body
      envoy.responseHeaders(Map.of(":status", "200", "content-type", "application/json"), null, false);
      envoy.next(); // response headers response
      String first = "{\"model\":\"m\",\"choices\":[{\"text\":\"" + "y".repeat(CAP - 100);
      envoy.responseBody(first, false);
      assertThat(envoy.pending()).as("under the cap: still buffered").isZero();
      String second = "z".repeat(CAP) + "\"}]}";
      envoy.responseBody(second, false);
      ByteArrayOutputStream passed = new ByteArrayOutputStream();
      while (envoy.pending() > 0) {
        passed.writeBytes(envoy.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse()
            .getBody().toByteArray());
      }
      assertThat(passed.toString()).isEqualTo(first + second);
      envoy.responseBody("tail", true);
      ProcessingResponse last = envoy.next();
      assertThat(last.getResponseBody().getResponse().getBodyMutation().getStreamedResponse().getBody()
          .toStringUtf8()).isEqualTo("tail");
      assertThat(last.getResponseBody().getResponse().getBodyMutation().getStreamedResponse().getEndOfStream())
          .isTrue();
    }
    assertThat(metrics.scrape()).contains("modelplane_extproc_streams_total{outcome=\"response_unbuffered\"} 1");
  }

  @Test
  void aResponseWithNoModelNameToRewriteBackIsPassedOnChunkByChunkNeverBuffered() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers(), false);
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      envoy.next(); // request headers response
      envoy.next(); // request body
      envoy.responseHeaders(Map.of(":status", "200", "content-type", "application/json"), null, false);
      envoy.next(); // response headers response
      for (String chunk : List.of("{\"model\":\"m\",", "\"choices\":[{\"text\":\"" + "y".repeat(CAP - 100))) {
        envoy.responseBody(chunk, false);
        assertThat(envoy.pending()).as("passed on at once").isEqualTo(1);
        assertThat(envoy.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse().getBody()
            .toStringUtf8()).isEqualTo(chunk);
      }
      envoy.responseBody("\"}]}", true);
      assertThat(envoy.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse()
          .getEndOfStream()).isTrue();
    }
    assertThat(metrics.scrape()).doesNotContain("outcome=\"response_unbuffered\"} 1");
  }

  /** An ext_proc server whose director has these limits; the caller closes the channel. */
  private ManagedChannel serverWith(RequestDirector director) throws Exception {
    String name = InProcessServerBuilder.generateName();
    Server s = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new ExtProcService(director, pools, metrics, false, director.limits().maxBodyBytes())).build()
        .start();
    extra.add(s);
    return InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  private final List<Server> extra = new java.util.ArrayList<>();

  @AfterEach
  void stopExtra() {
    extra.forEach(Server::shutdownNow);
  }

  private RequestDirector director(RequestLimits limits) {
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null)
        .load(ConfigLoader.DEFAULT_CONFIG);
    return new RequestDirector(setup, metrics, System::nanoTime, flow, null, false, limits);
  }

  @Test
  void bodiesOverTheInFlightBudgetGetAnImmediate429WithRetryAfterUntilBytesAreReleased() throws Exception {
    RequestDirector director = director(RequestLimits.defaults().withMaxBodyBytes(CAP)
        .withMaxInflightBytes(CAP + CAP / 2));
    ManagedChannel ch = serverWith(director);
    try (EnvoySimulator first = new EnvoySimulator(ch)) {
      first.requestHeaders(headers(), false);
      first.requestBody("{\"model\":\"m\",\"prompt\":\"" + "x".repeat(3000), false); // held, not yet routed
      assertThat(director.inflight().used()).isGreaterThan(3000);
      try (EnvoySimulator second = new EnvoySimulator(ch)) {
        second.requestHeaders(headers(), false);
        second.requestBody("{\"model\":\"m\",\"prompt\":\"" + "y".repeat(3500) + "\"}", true);
        ImmediateResponse ir = second.next().getImmediateResponse();
        assertThat(ir.getStatus().getCodeValue()).isEqualTo(429);
        assertThat(ir.getHeaders().getSetHeadersList()).anyMatch(h -> h.getHeader().getKey().equals("retry-after")
            && h.getHeader().getRawValue().toStringUtf8().equals("1"));
        assertThat(ir.getBody().toStringUtf8()).contains("\"type\":\"rate_limit_exceeded\"")
            .contains("too many request bytes in flight");
      }
    }
    // the first stream ended without a body's end: its bytes are given back
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
        .until(() -> director.inflight().used() == 0);
    try (EnvoySimulator third = new EnvoySimulator(ch)) {
      third.requestHeaders(headers(), false);
      third.requestBody("{\"model\":\"m\",\"prompt\":\"" + "y".repeat(3500) + "\"}", true);
      assertThat(third.next().hasRequestHeaders()).as("routed").isTrue();
    }
    org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
        .until(() -> director.inflight().used() == 0);
    assertThat(metrics.scrape()).contains("modelplane_router_inflight_bytes_rejections_total 1.0")
        .contains("modelplane_router_inflight_request_bytes 0.0");
    ch.shutdownNow();
  }

  @Test
  void aBodyOverTheJsonElementLimitIsAnImmediate400() throws Exception {
    RequestDirector director = director(RequestLimits.defaults().withJson(new RequestJson.Limits(8, 100, 1000)));
    ManagedChannel ch = serverWith(director);
    try (EnvoySimulator envoy = new EnvoySimulator(ch)) {
      envoy.requestHeaders(Map.of(":method", "POST", ":path", "/v1/chat/completions", "content-type",
          "application/json"), false);
      envoy.requestBody("{\"model\":\"m\",\"messages\":[" + "{},".repeat(200) + "{}]}", true);
      ImmediateResponse ir = envoy.next().getImmediateResponse();
      assertThat(ir.getStatus().getCodeValue()).isEqualTo(400);
      assertThat(ir.getBody().toStringUtf8()).contains("\"type\":\"invalid_request_error\"")
          .contains("more than 100 JSON elements");
    }
    try (EnvoySimulator envoy = new EnvoySimulator(ch)) {
      envoy.requestHeaders(headers(), false);
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      assertThat(envoy.next().hasRequestHeaders()).isTrue();
    }
    ch.shutdownNow();
  }

  @Test
  void beforeDiscoveryHasSyncedEveryRequestGetsAnImmediate503WithTheReason() throws Exception {
    pools.unavailableReason("endpoint discovery has not synced: the Kubernetes API is unreachable (pods: refused)");
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers(), false);
      ProcessingResponse r = envoy.next();
      assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
      assertThat(r.getImmediateResponse().getBody().toStringUtf8()).contains("\"type\":\"service_unavailable\"")
          .contains("endpoint discovery has not synced: the Kubernetes API is unreachable");
    }
    pools.unavailableReason(null);
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers(), false);
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      assertThat(envoy.next().hasRequestHeaders()).isTrue();
    }
  }
}
