package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The model name probe against loopback servers: bases found on the cluster are asked in order; a base from the spec
 * only under the model inspection policy (loopback, private and link-local addresses refused unless allowed); no
 * redirect followed, no answer read past its size limit.
 */
class ModelNameProbeTest {
  private static final String MODELS = "{\"data\":[{\"id\":\"tiny\"}]}";
  /** What the inspection tests allow to reach the loopback server. */
  private static final InspectionPolicy LOOPBACK = InspectionPolicy.defaults().withAllowHttp(true)
      .withAllowedCidrs(List.of("127.0.0.0/8"));

  private final List<String> requests = new CopyOnWriteArrayList<>();
  private HttpServer server;
  private String base;

  @BeforeEach
  void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
    base = "http://127.0.0.1:" + server.getAddress().getPort();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private void handle(HttpExchange x) throws IOException {
    try (x) {
      String path = x.getRequestURI().getPath();
      requests.add(path);
      switch (path) {
        case "/refusing/v1/models" -> x.sendResponseHeaders(503, -1);
        case "/redirecting/v1/models" -> {
          x.getResponseHeaders().add("Location", "/serving/v1/models");
          x.sendResponseHeaders(302, -1);
        }
        case "/huge/v1/models" -> {
          byte[] body = ("{\"data\":[{\"id\":\"tiny\"}],\"pad\":\"" + "x".repeat(ModelNameProbe.MAX_BODY) + "\"}")
              .getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(200, 0);
          x.getResponseBody().write(body);
        }
        default -> {
          byte[] body = MODELS.getBytes(StandardCharsets.UTF_8);
          x.sendResponseHeaders(200, body.length);
          x.getResponseBody().write(body);
        }
      }
    }
  }

  /** A target found on the cluster, asked at {@code probes}. */
  private static BenchmarkTarget cluster(String... probes) {
    return new BenchmarkTarget(probes[probes.length - 1], "openai", "none", null, null, List.of(probes));
  }

  /** A URL endpoint's target: its base is the user's. */
  private static BenchmarkTarget url(String url) {
    return new BenchmarkTarget(url, "openai", null, null, null, List.of(url), true);
  }

  @Test
  void theFirstModelThatIsNotAnAdapterIsTheName() {
    assertThat(ModelNameProbe.firstModel("""
        {"object": "list", "data": [
          {"id": "sql-lora", "object": "model", "parent": "meta-llama/Llama-3.1-8B-Instruct"},
          {"id": "meta-llama/Llama-3.1-8B-Instruct", "object": "model", "parent": null}]}
        """)).contains("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(ModelNameProbe.firstModel("{\"data\": []}")).isEmpty();
    assertThat(ModelNameProbe.firstModel("<html>")).isEmpty();
  }

  @Test
  void clusterBasesAreAskedInOrderUntilOneNamesAModel() {
    ModelNameProbe probe = new ModelNameProbe(InspectionPolicy.defaults());
    assertThat(probe.find(cluster(base + "/refusing", base + "/serving")))
        .isEqualTo(new ModelNameProbe.Outcome("tiny", null));
    assertThat(probe.find(cluster(base + "/refusing"))).isEqualTo(new ModelNameProbe.Outcome(null, null));
    assertThat(requests).containsExactly("/refusing/v1/models", "/serving/v1/models", "/refusing/v1/models");
  }

  @Test
  void aUrlFromTheSpecIsRefusedOnLoopbackByDefaultBeforeConnecting() {
    ModelNameProbe.Outcome outcome = new ModelNameProbe(InspectionPolicy.defaults().withAllowHttp(true))
        .find(url(base + "/serving"));
    assertThat(outcome.model()).isNull();
    assertThat(outcome.refused()).isEqualTo("127.0.0.1: it resolves to 127.0.0.1, a loopback address (allowed by "
        + "--model-inspection-allowed-cidrs)");
    assertThat(new ModelNameProbe(InspectionPolicy.defaults()).find(url(base + "/serving")).refused())
        .isEqualTo("127.0.0.1: plain http is not allowed, only https (allowed by --model-inspection-allow-http)");
    assertThat(requests).isEmpty();

    assertThat(new ModelNameProbe(LOOPBACK).find(url(base + "/serving")).model())
        .as("the policy's allowances apply").isEqualTo("tiny");
  }

  @Test
  void theCloudMetadataEndpointIsRefusedWithoutAConnection() {
    ModelNameProbe.Outcome outcome = new ModelNameProbe(InspectionPolicy.defaults().withAllowHttp(true))
        .find(url("http://169.254.169.254/latest/meta-data"));
    assertThat(outcome.model()).isNull();
    assertThat(outcome.refused()).startsWith("169.254.169.254: it resolves to 169.254.169.254, a link-local address");
  }

  @Test
  void aRedirectIsNotFollowed() {
    assertThat(new ModelNameProbe(LOOPBACK).find(url(base + "/redirecting")).model()).isNull();
    assertThat(new ModelNameProbe(LOOPBACK).find(cluster(base + "/redirecting")).model()).isNull();
    assertThat(requests).containsExactly("/redirecting/v1/models", "/redirecting/v1/models");
  }

  @Test
  void anAnswerLargerThanTheLimitIsNotRead() {
    assertThat(new ModelNameProbe(LOOPBACK).find(cluster(base + "/huge"))).isEqualTo(
        new ModelNameProbe.Outcome(null, null));
    assertThat(new ModelNameProbe(LOOPBACK).find(url(base + "/huge")).model()).isNull();
  }
}
