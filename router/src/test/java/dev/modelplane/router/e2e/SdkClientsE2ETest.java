package dev.modelplane.router.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.metrics.MetricsScraper;
import dev.modelplane.router.proxy.GatewayOptions;
import dev.modelplane.router.testing.FakeModelServer;
import io.vertx.core.Vertx;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on loopback with the official OpenAI Python and Node SDKs through the gateway. Upstreams are in-process
 * vLLM look-alikes (the simulator module replaces them once merged).
 */
class SdkClientsE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Vertx upstreams = Vertx.vertx();
  private final List<FakeModelServer> servers = new ArrayList<>();
  private OpenAiClients clients;
  private Router router;
  @TempDir
  Path tmp;

  @BeforeEach
  void setUp() throws Exception {
    clients = OpenAiClients.find().orElse(null);
    Assumptions.assumeTrue(clients != null, "official OpenAI SDKs not installable here (hack/clients/setup.sh)");
    for (String name : List.of("a", "b", "c")) {
      servers.add(new FakeModelServer(upstreams, name).start());
    }
  }

  @AfterEach
  void tearDown() throws Exception {
    if (router != null) {
      router.close();
    }
    for (FakeModelServer s : servers) {
      s.close();
    }
    upstreams.close().toCompletionStage().toCompletableFuture().get();
  }

  private String startRouter() throws Exception {
    String endpoints = String.join(",", servers.stream().map(FakeModelServer::hostPort).toList());
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(2).withMaxBodyBytes(1 << 20)
        .withAccessLog(false);
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, endpoints, List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start();
    return "http://127.0.0.1:" + router.gatewayPort() + "/v1";
  }

  private static List<String> run(Process p, Duration timeout) throws Exception {
    List<String> lines = new ArrayList<>();
    CompletableFuture<Void> reader = CompletableFuture.runAsync(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream()))) {
        for (String line; (line = r.readLine()) != null; ) {
          synchronized (lines) {
            lines.add(line);
          }
        }
      } catch (java.io.IOException ignored) {
        // process ended
      }
    });
    if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("client timed out; output: " + lines);
    }
    reader.get(10, TimeUnit.SECONDS);
    return lines;
  }

  @Test
  void pythonSdkStreamsAndSeesGatewayErrors() throws Exception {
    String base = startRouter();
    Path script = clients.script("router_e2e.py", tmp);
    List<String> out = run(clients.start(List.of(clients.python().toString(), script.toString(), base, "basic")),
        Duration.ofMinutes(3));
    assertThat(out).as(String.join("\n", out)).contains("OK");
  }

  @Test
  void nodeSdkStreamsAndSeesGatewayErrors() throws Exception {
    String base = startRouter();
    Path script = clients.script("router_e2e.mjs", tmp);
    List<String> out = run(clients.start(List.of("node", script.toString(), base)), Duration.ofMinutes(3));
    assertThat(out).as(String.join("\n", out)).contains("OK");
  }

  @Test
  void killingAnEndpointLosesNoRequestThatHadNotStartedStreaming() throws Exception {
    servers.forEach(s -> s.stream(30, 10)); // ~300 ms per stream
    String base = startRouter();
    Path script = clients.script("router_e2e.py", tmp);
    Process p = clients.start(List.of(clients.python().toString(), script.toString(), base, "kill", "60", "12"));
    CompletableFuture<List<String>> output = CompletableFuture.supplyAsync(() -> {
      try {
        return run(p, Duration.ofMinutes(3));
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    FakeModelServer victim = servers.get(1);
    await().atMost(Duration.ofSeconds(60)).until(() -> servers.stream().mapToInt(FakeModelServer::requests).sum()
        >= 20 && victim.requests() > victim.completed());
    int inFlightOnVictim = victim.requests() - victim.completed();
    victim.close();
    List<String> lines = output.get(3, TimeUnit.MINUTES);
    assertThat(lines).as(String.join("\n", lines)).contains("DONE");
    int ok = 0;
    int failed = 0;
    for (String line : lines) {
      if (!line.startsWith("{")) {
        continue;
      }
      JsonNode r = JSON.readTree(line);
      if (r.get("ok").asBoolean()) {
        ok++;
      } else {
        failed++;
        assertThat(r.get("started").asBoolean()).as("request %s failed before streaming: %s", r.get("i"), line)
            .isTrue();
      }
    }
    System.out.printf("kill test: ok=%d failed(after streaming began)=%d in-flight on killed endpoint=%d%n", ok,
        failed, inFlightOnVictim);
    assertThat(ok + failed).isEqualTo(60);
    assertThat(failed).isLessThanOrEqualTo(inFlightOnVictim);
    assertThat(servers.get(0).requests() + servers.get(2).requests()).isGreaterThan(40 - inFlightOnVictim);
  }
}
