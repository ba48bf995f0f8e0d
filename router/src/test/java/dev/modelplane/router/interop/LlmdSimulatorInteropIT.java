package dev.modelplane.router.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.plugin.PromptTokenizer;
import dev.modelplane.testsupport.FreePorts;
import dev.modelplane.testsupport.PeerBinary;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Our router reading the KV-cache events of an independent publisher: two llm-d-inference-sim servers (llm-d's vLLM
 * simulator, which sends vLLM's wire format with its own block hashes and numbers batches from 1) dial the router's
 * bound event socket, each under its pod's topic. A prompt cached on one server is then routed to it every time.
 * Prompts are token ids, which both sides take as they are.
 */
class LlmdSimulatorInteropIT {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern BLOCKS =
      Pattern.compile("modelplane_router_precise_prefix_index_blocks\\{pool=\"static/static\"} ([0-9.]+)");
  private final List<Process> sims = new ArrayList<>();
  private Router router;

  @AfterEach
  void stop() throws Exception {
    for (Process p : sims) {
      p.destroy();
      if (!p.waitFor(5, TimeUnit.SECONDS)) {
        p.destroyForcibly();
      }
    }
    if (router != null) {
      router.close();
    }
  }

  private Process startSim(Path bin, String podIp, int port, int eventsPort) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(bin.toString(), "--model", "m", "--port", Integer.toString(port),
        "--enable-kvcache", "--force-dummy-tokenizer", "--kv-cache-size", "1024", "--block-size", "16",
        "--hash-seed", "42", "--zmq-endpoint", "tcp://127.0.0.1:" + eventsPort, "--max-num-seqs", "8")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
    pb.environment().put("POD_IP", podIp);
    Process p = pb.start();
    sims.add(p);
    return p;
  }

  private static HttpResponse<String> send(String url, String body) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(20))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static boolean ready(String hostPort) {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create("http://" + hostPort + "/v1/models"))
          .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (Exception e) {
      return false;
    }
  }

  private static String prompt(int first, int count) {
    return "{\"model\":\"m\",\"max_tokens\":1,\"prompt\":[" + IntStream.range(first, first + count)
        .mapToObj(Integer::toString).collect(Collectors.joining(",")) + "]}";
  }

  private double indexedBlocks() throws Exception {
    String metrics = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + router.gatewayPort()
        + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    Matcher m = BLOCKS.matcher(metrics);
    return m.find() ? Double.parseDouble(m.group(1)) : 0;
  }

  /** Sends {@code body} to the server directly until the router has indexed at least {@code blocks} blocks. */
  private void primeUntilIndexed(String server, String body, double blocks) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (indexedBlocks() < blocks && System.nanoTime() < deadline) {
      assertThat(send("http://" + server + "/v1/completions", body).statusCode()).isEqualTo(200);
      Thread.sleep(500); // the simulator flushes its events at least once a second
    }
    assertThat(indexedBlocks()).as("blocks indexed from the simulator's events").isGreaterThanOrEqualTo(blocks);
  }

  @Test
  void promptsGoToTheLlmdSimulatorWhoseEventsSayItCachesThem() throws Exception {
    Path bin = PeerBinary.require("llm-d-sim", "MODELPLANE_LLMD_SIM_BIN");
    int eventsPort = FreePorts.pick();
    String one = "127.0.0.2:" + FreePorts.pick();
    String two = "127.0.0.3:" + FreePorts.pick();
    String config = """
        plugins:
        - type: precise-prefix-cache-scorer
          parameters:
            tokenProcessorConfig: {blockSize: 16, hashSeed: "42"}
            kvEventsConfig: {zmqEndpoint: "tcp://*:%d", discoverPods: false}
        - type: queue-scorer
        schedulingProfiles:
        - name: default
          plugins: [{pluginRef: precise-prefix-cache-scorer, weight: 3}, {pluginRef: queue-scorer}]
        """.formatted(eventsPort);
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, one + "," + two, List.of(), null, config,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false), PromptTokenizer.NONE).start();
    startSim(bin, "127.0.0.2", Integer.parseInt(one.split(":")[1]), eventsPort);
    startSim(bin, "127.0.0.3", Integer.parseInt(two.split(":")[1]), eventsPort);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!(ready(one) && ready(two)) && System.nanoTime() < deadline) {
      Thread.sleep(200);
    }
    assertThat(ready(one) && ready(two)).as("both llm-d-inference-sim servers answer").isTrue();

    String x = prompt(1000, 64); // four blocks of 16
    String y = prompt(5000, 64);
    primeUntilIndexed(two, x, 4);
    primeUntilIndexed(one, y, 8);
    String gateway = "http://127.0.0.1:" + router.gatewayPort() + "/v1/completions";
    for (int i = 0; i < 5; i++) {
      HttpResponse<String> rx = send(gateway, x);
      assertThat(rx.statusCode()).as(rx.body()).isEqualTo(200);
      assertThat(rx.headers().firstValue("x-gateway-destination-endpoint-served")).as("prompt x").hasValue(two);
      HttpResponse<String> ry = send(gateway, y);
      assertThat(ry.headers().firstValue("x-gateway-destination-endpoint-served")).as("prompt y").hasValue(one);
    }
  }
}
