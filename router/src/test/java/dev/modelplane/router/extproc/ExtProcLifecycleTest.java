package dev.modelplane.router.extproc;

import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.testing.RecordingPlugin;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The ext_proc server runs the same lifecycle as the gateway, with the served endpoint read from Envoy's metadata. */
class ExtProcLifecycleTest {
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private Server server;
  private ManagedChannel channel;

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    flow.shutdownNow();
  }

  @Test
  void responsePluginsSeeTheEndpointEnvoyActuallyUsed() throws Exception {
    PoolRegistry pools = new PoolRegistry();
    pools.getOrCreate(PoolKey.STATIC).setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", 8000)));
    SchedulingSetup setup = RecordingPlugin.load();
    RecordingPlugin plugin = (RecordingPlugin) setup.plugins().get(RecordingPlugin.TYPE);
    RouterMetrics metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    RequestDirector director = new RequestDirector(setup, metrics, System::nanoTime, flow);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new ExtProcService(director, pools, metrics, false)).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();

    EnvoySimulator envoy = new EnvoySimulator(channel);
    envoy.requestHeaders(Map.of(":method", "POST", ":path", "/v1/completions", "x-request-id", "req-2"), false);
    envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
    envoy.next(); // request headers response
    envoy.next(); // body
    envoy.responseHeaders(Map.of(":status", "503"), "127.0.0.1:8000", false);
    envoy.responseBody("{\"error\":{}}", true);
    envoy.halfClose();

    assertThat(plugin.events()).containsExactly("prepareData req-2", "preRequest 127.0.0.1:8000",
        "responseReceived 503 127.0.0.1:8000", "responseComplete 127.0.0.1:8000");
    assertThat(plugin.outcome().status()).isEqualTo(503);
    assertThat(metrics.scrape()).contains("error_code=\"ModelServerError\"");
  }
}
