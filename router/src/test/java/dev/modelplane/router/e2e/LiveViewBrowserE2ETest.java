package dev.modelplane.router.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.simulator.Simulator;
import dev.modelplane.simulator.SimulatorConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live page in a real browser: Debian's Chromium, driven by playwright-core ({@code hack/browser/install.sh}),
 * opens {@code /ui} on the router's metrics port while three simulators serve a pool behind the gateway on loopback,
 * and {@code hack/browser/ui-check.mjs} reports what it saw: the endpoints and decisions, numbers that change while
 * the page stays open, no console error, no request off loopback, a hostile model name shown as text. Skipped when
 * the browser or playwright-core is missing, a failure under {@code CI=true}. {@code MODELPLANE_UI_LOAD_SECONDS}
 * (default 4) is how long the load runs before the screenshot, written to {@code target/ui-live.png}.
 */
class LiveViewBrowserE2ETest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MODEL = "Qwen/Qwen2.5-7B-Instruct";
  private static final String HOSTILE =
      "<img src=x onerror=\"window.__modelplaneXss=1\"><b>bold</b><script>window.__modelplaneXss=2</script>";
  /** Different openings, so that prefix affinity does not send every client to one endpoint. */
  private static final List<String> TOPICS = List.of("the quarterly report", "this support ticket",
      "the release notes", "a recipe for bread", "the meeting minutes", "an incident review", "the sales figures",
      "a chapter of the novel", "the customer survey", "the design document");
  private static final List<String> PODS = List.of("qwen-7b-6c9f8d7b5-2xkq9", "qwen-7b-6c9f8d7b5-h7tzm",
      "qwen-7b-6c9f8d7b5-w4lnc");
  private final List<Simulator> sims = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final ExecutorService load = Executors.newFixedThreadPool(12);
  private final AtomicBoolean loading = new AtomicBoolean(true);
  private Router router;
  @TempDir
  Path tmp;

  @AfterEach
  void tearDown() throws InterruptedException {
    loading.set(false);
    load.shutdownNow();
    load.awaitTermination(30, TimeUnit.SECONDS);
    if (router != null) {
      router.close();
    }
    sims.forEach(Simulator::close);
    http.close();
  }

  @Test
  void theLivePageShowsThePoolAndUpdatesWhileOpen() throws Exception {
    Path playwright = playwrightOrSkip();
    for (int i = 0; i < 3; i++) {
      sims.add(Simulator.start(SimulatorConfig.of(MODEL).host("127.0.0.1").port(0).seed(21 + i).mode("random")
          .timeToFirstToken(Duration.ofMillis(60 + 40 * i)).interTokenLatency(Duration.ofMillis(12))
          .maxNumSeqs(4).kvCacheSize(96).blockSize(16)));
    }
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(2).withMaxBodyBytes(1 << 20)
        .withAccessLog(false);
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, 0, null, List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start();
    List<Endpoint> endpoints = new ArrayList<>();
    for (int i = 0; i < sims.size(); i++) {
      endpoints.add(new Endpoint(new EndpointId("inference", PODS.get(i)), "127.0.0.1", sims.get(i).port(),
          Map.of("app", "qwen-7b")));
    }
    router.pools().getOrCreate(new PoolKey("inference", "qwen-7b")).setEndpoints(endpoints);
    String base = "http://127.0.0.1:" + router.gatewayPort();
    for (int i = 0; i < 6; i++) {
      assertThat(chat(base, MODEL, i % 2 == 0, 16, TOPICS.get(i)).statusCode()).isEqualTo(200);
    }

    Path signals = Files.createDirectories(tmp.resolve("signals"));
    Path screenshot = Path.of("target", "ui-live.png").toAbsolutePath();
    Files.createDirectories(screenshot.getParent());
    Path script = OpenAiClients.repoRoot().resolve("hack/browser/ui-check.mjs");
    Process check = new ProcessBuilder("node", script.toString(), playwright.toString(),
        "http://127.0.0.1:" + router.metricsPort() + "/ui", screenshot.toString(), signals.toString(), "3", HOSTILE)
        .redirectErrorStream(false).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    CompletableFuture<String> output = CompletableFuture.supplyAsync(() -> {
      try {
        return new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new RuntimeException(e);
      }
    });
    awaitFile(signals.resolve("opened"), check);
    int seconds = Integer.parseInt(Optional.ofNullable(System.getenv("MODELPLANE_UI_LOAD_SECONDS")).orElse("4"));
    long runMillis = Math.max(1, Math.min(seconds, 900)) * 1000L;
    // The page is open: load it live, streaming and not, from clients joining one by one (the lines then rise).
    for (int c = 0; c < 10; c++) {
      int client = c;
      load.submit(() -> {
        try {
          Thread.sleep(client * runMillis / 12);
        } catch (InterruptedException e) {
          return;
        }
        for (int n = 0; loading.get() && n < 10_000; n++) {
          try {
            chat(base, MODEL, (client + n) % 3 != 0, 40 + (client * 37 + n * 11) % 120, TOPICS.get(client));
          } catch (Exception e) {
            return;
          }
        }
      });
    }
    Thread.sleep(runMillis);
    Files.writeString(signals.resolve("shoot"), "");
    awaitFile(signals.resolve("shot"), check);
    loading.set(false);
    HttpResponse<String> hostile = chat(base, HOSTILE, false, 4, TOPICS.get(0));
    assertThat(hostile.statusCode()).as(hostile.body()).isGreaterThanOrEqualTo(400);
    assertThat(check.waitFor(2, TimeUnit.MINUTES)).as("ui-check.mjs finished").isTrue();
    String out = output.get(10, TimeUnit.SECONDS).strip();
    JsonNode r = JSON.readTree(out.substring(out.lastIndexOf('\n') + 1));

    assertThat(r.has("failure")).as(out).isFalse();
    assertThat(check.exitValue()).as(out).isZero();
    assertThat(r.get("title").asText()).isEqualTo("modelplane router · live");
    assertThat(r.get("endpointRows").asInt()).isEqualTo(3);
    assertThat(r.get("endpointNames")).extracting(JsonNode::asText).containsExactlyElementsOf(PODS);
    assertThat(r.get("decisionsAfter").asInt()).isGreaterThanOrEqualTo(r.get("decisionsBefore").asInt() + 10);
    assertThat(r.get("firstRowAfter").asText()).isNotEqualTo(r.get("firstRowBefore").asText());
    assertThat(r.get("runningSeen").asBoolean()).isTrue();
    assertThat(r.get("sparklinePaths").asInt()).isGreaterThanOrEqualTo(3);
    assertThat(r.get("polls").asInt()).isGreaterThanOrEqualTo(3);
    assertThat(r.get("consoleErrors")).as(out).isEmpty();
    assertThat(r.get("offLoopback")).as(out).isEmpty();
    assertThat(r.get("hostileShownAsText").asBoolean()).isTrue();
    assertThat(r.get("xss").isNull()).as("the hostile name's script never ran").isTrue();
    assertThat(r.get("injectedElements").asInt()).as("no element made from the hostile name").isZero();
    assertThat(r.get("scriptElements").asInt()).isEqualTo(1);
    assertThat(r.get("errorBanner").asText()).isEmpty();
    assertThat(Files.size(screenshot)).isGreaterThan(10_000);

    // What the page read: streams have a time to first token and count tokens, plain bodies neither.
    JsonNode state = JSON.readTree(http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + router.metricsPort() + "/ui/state")).build(), HttpResponse.BodyHandlers.ofString()).body());
    boolean sawStream = false;
    boolean sawPlain = false;
    for (JsonNode d : state.get("decisions")) {
      if (d.get("status").asInt() != 200) {
        continue;
      }
      assertThat(d.get("pool").asText()).isEqualTo("inference/qwen-7b");
      assertThat(d.get("endpoint").asText()).isIn(PODS);
      assertThat(d.get("reason").asText()).startsWith("profile ");
      assertThat(d.get("durationMs").asDouble()).isPositive();
      if (d.get("tokens").asInt() > 0) {
        sawStream = true;
        assertThat(d.get("ttftMs").asDouble()).isPositive().isLessThanOrEqualTo(d.get("durationMs").asDouble());
      } else {
        sawPlain = true;
        assertThat(d.get("ttftMs").isNull()).isTrue();
      }
    }
    assertThat(sawStream).isTrue();
    assertThat(sawPlain).isTrue();
    assertThat(state.get("traffic").get("recent").get("ttftP50").asDouble()).isPositive();
  }

  private HttpResponse<String> chat(String base, String model, boolean stream, int maxTokens, String topic)
      throws Exception {
    String body = JSON.writeValueAsString(Map.of("model", model, "stream", stream, "max_tokens", maxTokens,
        "messages", List.of(Map.of("role", "user", "content",
            ("Summarise " + topic + " in three bullet points. ").repeat(4 + maxTokens % 7)))));
    return http.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
        .timeout(Duration.ofSeconds(60)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }

  private static void awaitFile(Path file, Process check) throws InterruptedException {
    for (int i = 0; i < 1800 && !Files.exists(file); i++) {
      if (!check.isAlive()) {
        throw new AssertionError("ui-check.mjs ended before writing " + file.getFileName());
      }
      Thread.sleep(100);
    }
    assertThat(file).as("ui-check.mjs wrote " + file.getFileName()).exists();
  }

  /** playwright-core's install directory, with /usr/bin/chromium present; skips (fails under CI=true) otherwise. */
  private static Path playwrightOrSkip() throws Exception {
    String configured = System.getenv("MODELPLANE_PLAYWRIGHT_DIR");
    Path dir = null;
    if (configured != null && !configured.isBlank()) {
      dir = Path.of(configured);
    } else {
      Path install = OpenAiClients.repoRoot().resolve("hack/browser/install.sh");
      if (Files.isExecutable(install)) {
        Process p = new ProcessBuilder(install.toString(), "--check").redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0 && !out.isEmpty()) {
          dir = Path.of(out.substring(out.lastIndexOf('\n') + 1));
        }
      }
    }
    String why = null;
    if (!Files.isExecutable(Path.of("/usr/bin/chromium"))) {
      why = "/usr/bin/chromium is missing (Debian package chromium; hack/browser/install.sh installs it as root)";
    } else if (dir == null || !Files.isRegularFile(dir.resolve("node_modules/playwright-core/package.json"))) {
      why = "playwright-core is not installed: run hack/browser/install.sh (needs npm) or set "
          + "MODELPLANE_PLAYWRIGHT_DIR to the directory it prints";
    }
    if (why != null) {
      if ("true".equals(System.getenv("CI"))) {
        Assertions.fail("CI=true and no browser for the live view test: " + why);
      }
      Assumptions.abort("skipped: " + why);
    }
    return dir;
  }
}
