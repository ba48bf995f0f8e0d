package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The simulator speaks HTTP/1.1, as vLLM's server does: a client that asks for an h2c upgrade (the JDK's HttpClient
 * does by default on http://) gets its answers over HTTP/1.1, large ones included. Upgraded connections used to
 * stall after the 101 on a /metrics page of some 50 KB.
 */
class HttpVersionTest {
  @Test
  void aClientAskingForAnH2cUpgradeIsAnsweredOverHttp11() throws Exception {
    String model = "/models/" + "a-long-served-model-name-that-grows-every-metrics-series-".repeat(3) + "q4.gguf";
    try (Simulator sim = Simulator.start(SimulatorConfig.of(model).host("127.0.0.1").port(0).seed(1))) {
      HttpClient upgrading = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
          .connectTimeout(Duration.ofSeconds(5)).build();
      for (int i = 0; i < 20; i++) {
        HttpClient fresh = i % 2 == 0 ? upgrading : HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
            .connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> r = fresh.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + sim.port()
            + "/metrics")).timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(r.body()).contains("vllm:num_requests_running");
      }
    }
  }
}
