package dev.modelplane.router;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.common.logging.LogFormat;
import dev.modelplane.common.logging.LogLevels;
import dev.modelplane.common.logging.LogSetup;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The router logs through the shared setup: its own events, and the access log with the request id in the MDC. */
class RouterLoggingTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  @AfterEach
  void restore() {
    LogSetup.configure(LogFormat.KEYVALUE, LogLevels.DEFAULT);
  }

  private List<JsonNode> lines() throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    ObjectMapper json = new ObjectMapper();
    for (String line : out.toString(StandardCharsets.UTF_8).lines().toList()) {
      lines.add(json.readTree(line));
    }
    return lines;
  }

  @Test
  void startUpAndAccessLinesAreJsonWhenAskedFor() throws Exception {
    LogSetup.configure(LogFormat.JSON, LogLevels.DEFAULT, out);
    int dead;
    try (ServerSocket s = new ServerSocket(0)) {
      dead = s.getLocalPort();
    }
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(true);
    try (Router router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, "127.0.0.1:" + dead, List.of(),
        null, null, MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start()) {
      HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + router.gatewayPort() + "/v1/chat/completions"))
          .header("content-type", "application/json").header("x-request-id", "req-42")
          .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"messages\":[{\"role\":\"user\","
              + "\"content\":\"hi\"}]}")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(503);
      await().atMost(Duration.ofSeconds(10)).until(() -> lines().stream()
          .anyMatch(l -> "access".equals(l.path("event").asText())));
    }
    List<JsonNode> lines = lines();
    assertThat(lines).anySatisfy(l -> {
      assertThat(l.path("logger").asText()).isEqualTo("dev.modelplane.router.gateway.GatewayServer");
      assertThat(l.path("msg").asText()).isEqualTo("gateway listening");
      assertThat(l.path("port").isInt()).isTrue();
    });
    assertThat(lines).anySatisfy(l -> {
      assertThat(l.path("event").asText()).isEqualTo("access");
      assertThat(l.path("status").asInt()).isEqualTo(503);
      assertThat(l.path("path").asText()).isEqualTo("/v1/chat/completions");
      assertThat(l.path("request_id").asText()).isEqualTo("req-42");
      assertThat(l.path("error").asText()).contains("127.0.0.1:" + dead);
    });
  }

  @Test
  void theCommandTakesTheLoggingFlagsAndKeepsDebug() {
    RouterCommand command = new RouterCommand();
    new CommandLine(command).parseArgs("--log-format=json", "--log-level=warn,io.grpc=info", "--debug");
    assertThat(command.logging.format()).isEqualTo(LogFormat.JSON);
    assertThat(command.logging.levels()).hasToString("warn,io.grpc=info");
    assertThat(command.debug).isTrue();
  }
}
