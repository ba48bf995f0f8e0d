package dev.modelplane.router.extproc;

import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Behind Envoy, a session token a plugin sets rides on the response-headers mutation, and pins the next request. */
class ExtProcSessionTokenTest {
  private final PoolRegistry pools = new PoolRegistry();
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private Server server;
  private ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    EndpointPool pool = pools.getOrCreate(PoolKey.STATIC);
    pool.setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000), Endpoint.ofStatic("10.0.0.2", 8000),
        Endpoint.ofStatic("10.0.0.3", 8000)));
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null).load("""
        plugins: [{type: session-affinity-filter}, {type: random-picker}]
        """);
    RouterMetrics metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    RequestDirector director = new RequestDirector(setup, metrics, System::nanoTime, flow);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new ExtProcService(director, pools, metrics, false)).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    flow.shutdownNow();
  }

  private static Map<String, String> setHeaders(CommonResponse c) {
    Map<String, String> out = new HashMap<>();
    for (HeaderValueOption o : c.getHeaderMutation().getSetHeadersList()) {
      out.put(o.getHeader().getKey(), o.getHeader().getRawValue().toStringUtf8());
    }
    return out;
  }

  /** One request through the stream: the destination the picker chose, and the response headers it set. */
  private static Map<String, String>[] exchange(EnvoySimulator envoy, String servedBy, String... extraHeaders)
      throws InterruptedException {
    Map<String, String> h = new LinkedHashMap<>(Map.of(":method", "POST", ":path", "/v1/chat/completions",
        ":authority", "gateway", "content-type", "application/json"));
    for (int i = 0; i + 1 < extraHeaders.length; i += 2) {
      h.put(extraHeaders[i], extraHeaders[i + 1]);
    }
    envoy.requestHeaders(h, false);
    envoy.requestBody("{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", true);
    ProcessingResponse headers = envoy.next();
    Map<String, String> request = setHeaders(headers.getRequestHeaders().getResponse());
    ProcessingResponse r = envoy.next();
    while (!r.getRequestBody().getResponse().getBodyMutation().getStreamedResponse().getEndOfStream()) {
      r = envoy.next();
    }
    String destination = request.get(EppProtocol.DESTINATION_ENDPOINT_KEY);
    envoy.responseHeaders(Map.of(":status", "200", "content-type", "application/json"),
        servedBy == null ? destination : servedBy, false);
    @SuppressWarnings("unchecked")
    Map<String, String>[] out = new Map[] {request, setHeaders(envoy.next().getResponseHeaders().getResponse())};
    return out;
  }

  @Test
  void theTokenNamesTheEndpointEnvoyReportsAndPinsTheNextRequest() throws Exception {
    String token;
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      Map<String, String>[] first = exchange(envoy, "10.0.0.3:8000"); // Envoy fell back to another endpoint
      token = first[1].get("x-session-token");
      assertThat(first[1]).containsEntry("x-went-into-resp-headers", "true");
      assertThat(new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8))
          .isEqualTo("static/10.0.0.3:8000");
    }
    for (int i = 0; i < 8; i++) {
      try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
        Map<String, String>[] next = exchange(envoy, null, "x-session-token", token);
        assertThat(next[0]).containsEntry(EppProtocol.DESTINATION_ENDPOINT_KEY, "10.0.0.3:8000");
        assertThat(next[1]).containsEntry("x-session-token", token);
      }
    }
  }
}
