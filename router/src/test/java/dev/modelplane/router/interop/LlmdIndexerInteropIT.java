package dev.modelplane.router.interop;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.tokenizer.WordTokenizer;
import dev.modelplane.simulator.Simulator;
import dev.modelplane.simulator.SimulatorConfig;
import dev.modelplane.testsupport.FreePorts;
import dev.modelplane.testsupport.PeerBinary;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Our simulator's KV-cache events read by an independent consumer: llm-d's own indexer (llm-d-kv-cache, behind the
 * small probe in hack/kv-indexer) subscribes to two simulators and must place each prompt's blocks on the pod that
 * served it, and nowhere else. The probe re-hashes the events' token ids with llm-d's own hash, so it checks the
 * wire format, the topic and the token ids, not our hash.
 */
class LlmdIndexerInteropIT {
  static final ObjectMapper JSON = new ObjectMapper();
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  static final int BLOCK = 16;
  private final List<AutoCloseable> open = new ArrayList<>();
  private Process indexer;

  @AfterEach
  void stop() throws Exception {
    if (indexer != null) {
      indexer.destroy();
      if (!indexer.waitFor(5, TimeUnit.SECONDS)) {
        indexer.destroyForcibly();
      }
    }
    for (AutoCloseable c : open.reversed()) {
      c.close();
    }
  }

  /** A simulator on 127.0.0.1 whose events go out on {@code eventPort} under llm-d's topic for {@code httpPort}. */
  Simulator simulator(int httpPort, int eventPort) {
    String events = """
        {"enable_kv_cache_events": true, "publisher": "zmq", "endpoint": "tcp://*:%d",
         "topic": "kv@127.0.0.1:%d@m"}""".formatted(eventPort, httpPort);
    Simulator sim = Simulator.start(SimulatorConfig.of("m").host("127.0.0.1").port(httpPort).seed(1)
        .blockSize(BLOCK).hashSeed("42").kvEventsConfig(events));
    open.add(sim);
    return sim;
  }

  static int complete(int port, String prompt) throws Exception {
    String body = JSON.createObjectNode().put("model", "m").put("prompt", prompt).put("max_tokens", 1).toString();
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v1/completions"))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.discarding()).statusCode();
  }

  /** Starts the probe subscribed to {@code endpoints}; returns its HTTP port. */
  int startIndexer(List<String> endpoints) throws Exception {
    Path bin = PeerBinary.require("kv-indexer", "MODELPLANE_KV_INDEXER_BIN");
    List<String> cmd = new ArrayList<>(List.of(bin.toString(), "--port", "0", "--block-size",
        Integer.toString(BLOCK), "--hash-seed", "42"));
    endpoints.forEach(e -> cmd.addAll(List.of("--connect", e)));
    indexer = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    BufferedReader out = new BufferedReader(new InputStreamReader(indexer.getInputStream(), StandardCharsets.UTF_8));
    Pattern listening = Pattern.compile("listening on http://127\\.0\\.0\\.1:(\\d+)");
    List<String> seen = new ArrayList<>();
    for (String line; (line = out.readLine()) != null && seen.size() < 200; ) {
      seen.add(line);
      Matcher m = listening.matcher(line);
      if (m.find()) {
        Thread.ofVirtual().start(() -> drain(out));
        return Integer.parseInt(m.group(1));
      }
    }
    throw new IllegalStateException("kv-indexer did not start: " + seen);
  }

  /** Reads the probe's output until it exits, so its pipe never fills. */
  private static void drain(BufferedReader out) {
    try {
      while (out.readLine() != null) {
        // discarded
      }
    } catch (IOException closed) {
      // the process was stopped
    }
  }

  static JsonNode lookup(int port, int[] tokens) throws IOException, InterruptedException {
    ObjectNode body = JSON.createObjectNode().put("model", "m");
    var ids = body.putArray("token_ids");
    for (int t : tokens) {
      ids.add(t);
    }
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/lookup"))
        .POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  static int blocksOn(JsonNode lookup, String pod) {
    return lookup.path("pods").path(pod).path("blocks").asInt(0);
  }

  static String words(String prefix, int n) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append(prefix).append(i).append(' ');
    }
    return sb.toString();
  }

  @Test
  void llmdsIndexerPlacesEachPromptOnThePodThatServedIt() throws Exception {
    int http1 = FreePorts.pick();
    int http2 = FreePorts.pick();
    int events1 = FreePorts.pick();
    int events2 = FreePorts.pick();
    simulator(http1, events1);
    simulator(http2, events2);
    int probe = startIndexer(List.of("tcp://127.0.0.1:" + events1, "tcp://127.0.0.1:" + events2));
    String pod1 = "127.0.0.1:" + http1;
    String pod2 = "127.0.0.1:" + http2;

    // PUB/SUB drops what is published before a subscription is up: send until each pod's blocks show.
    String a = words("alpha", 80);
    String b = words("bravo", 80);
    int[] ta = WordTokenizer.INSTANCE.tokenize(a, true).ids();
    int[] tb = WordTokenizer.INSTANCE.tokenize(b, true).ids();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    int round = 0;
    while (System.nanoTime() < deadline && (blocksOn(lookup(probe, ta), pod1) == 0
        || blocksOn(lookup(probe, tb), pod2) == 0)) {
      assertThat(complete(http1, round == 0 ? a : words("warm1-" + round, 40))).isEqualTo(200);
      assertThat(complete(http2, round == 0 ? b : words("warm2-" + round, 40))).isEqualTo(200);
      if (round > 0) {
        complete(http1, a);
        complete(http2, b);
      }
      round++;
      Thread.sleep(300);
    }
    JsonNode la = lookup(probe, ta);
    JsonNode lb = lookup(probe, tb);
    assertThat(blocksOn(la, pod1)).as("prompt A on the pod that served it: " + la).isEqualTo(ta.length / BLOCK);
    assertThat(blocksOn(la, pod2)).as("prompt A nowhere else: " + la).isZero();
    assertThat(blocksOn(lb, pod2)).as("prompt B on the pod that served it: " + lb).isEqualTo(tb.length / BLOCK);
    assertThat(blocksOn(lb, pod1)).as("prompt B nowhere else: " + lb).isZero();
  }
}
