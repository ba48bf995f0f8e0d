package dev.modelplane.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.testing.FakeModelServer;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.grpc.ManagedChannel;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A model server dies while the picker serves Envoy: the picker keeps answering every stream, and once the dead
 * server's scrape is refused it is no longer picked (Envoy's own connect errors never reach an ext_proc picker).
 */
class ExtProcDeadEndpointTest {
  private static String pick(ManagedChannel channel) throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(Map.of(":method", "POST", ":path", "/v1/completions", ":authority", "gw"), false);
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      Object event = envoy.nextEvent();
      assertThat(event).as("the picker answers").isInstanceOf(ProcessingResponse.class);
      return ((ProcessingResponse) event).getRequestHeaders().getResponse().getHeaderMutation().getSetHeaders(0)
          .getHeader().getRawValue().toStringUtf8();
    }
  }

  @Test
  void aKilledServerIsSkippedAfterItsScrapeIsRefusedAndThePickerKeepsAnswering() throws Exception {
    Vertx upstreams = Vertx.vertx();
    FakeModelServer victim = new FakeModelServer(upstreams, "victim").start();
    // The survivor looks busy (short of saturation, which would hold requests in flow control), so the victim is the
    // pick while it lives.
    FakeModelServer survivor = new FakeModelServer(upstreams, "survivor").metrics(4, 0.7).start();
    try (Router router = new Router(new RouterOptions("127.0.0.1", null, 0, -1, -1,
        victim.hostPort() + "," + survivor.hostPort(), List.of(), null, null, MetricsScraper.Settings.DEFAULT,
        Duration.ofSeconds(2), null, false, false)).start()) {
      ManagedChannel channel = GrpcTls.channel("127.0.0.1:" + router.extProcPort(), GrpcTls.ClientTls.PLAINTEXT);
      try {
        await().atMost(Duration.ofSeconds(10)).until(() -> pick(channel).equals(victim.hostPort()));
        victim.close();
        long killed = System.nanoTime();
        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(20))
            .until(() -> pick(channel).equals(survivor.hostPort()));
        System.out.printf("ext_proc: dead endpoint skipped %d ms after the kill%n",
            (System.nanoTime() - killed) / 1_000_000);
        for (int i = 0; i < 50; i++) {
          assertThat(pick(channel)).isEqualTo(survivor.hostPort());
        }
      } finally {
        channel.shutdownNow();
      }
    } finally {
      survivor.close();
      upstreams.close().toCompletionStage().toCompletableFuture().get();
    }
  }
}
