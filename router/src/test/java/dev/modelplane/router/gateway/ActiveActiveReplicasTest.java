package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.testing.FakeModelServer;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two router replicas of one pool, as {@code --ha-enable-leader-election} with several picker replicas gives: no
 * lease, no shared state — each routes every request it gets on its own, and one going away leaves the other
 * serving.
 */
class ActiveActiveReplicasTest extends GatewayHarness {
  private HttpResponse<String> send(Router replica, int i) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + replica.gatewayPort()
        + "/v1/completions")).timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"request " + i + "\"}")).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void bothReplicasRouteOnTheirOwnAndEitherKeepsServingWhenTheOtherStops() throws Exception {
    FakeModelServer a = server("a");
    FakeModelServer b = server("b");
    String endpoints = a.hostPort() + "," + b.hostPort();
    Router first = router(endpoints, null, 1 << 20);
    Router second = new Router(new RouterOptions("127.0.0.1", GatewayOptions.defaults().withPort(0)
        .withEventLoops(1).withAccessLog(false), -1, -1, -1, endpoints, List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start();
    try {
      for (int i = 0; i < 10; i++) {
        assertThat(send(i % 2 == 0 ? first : second, i).statusCode()).isEqualTo(200);
      }
      assertThat(a.requests() + b.requests()).isEqualTo(10);
      first.close();
      router = null;
      for (int i = 10; i < 15; i++) {
        assertThat(send(second, i).statusCode()).isEqualTo(200);
      }
      assertThat(a.requests() + b.requests()).isEqualTo(15);
    } finally {
      second.close();
    }
  }
}
