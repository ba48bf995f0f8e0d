package dev.modelplane.router.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.common.kvevents.KvEventSubscriber;
import dev.modelplane.common.kvevents.KvTopic;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import dev.modelplane.common.tokenizer.TokenizerCache;
import dev.modelplane.common.tokenizer.WordTokenizer;
import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.gateway.GatewayOptions;
import dev.modelplane.router.tokenize.ModelTokenizers;
import dev.modelplane.simulator.Simulator;
import dev.modelplane.simulator.SimulatorConfig;
import dev.modelplane.testsupport.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Real simulators on loopback publishing KV-cache events (each on its own 127.0.0.x address with the same event
 * and replay ports, as pods do on their own IPs), the routers a test starts in front of them, and a mirror of every
 * simulator's cache built from the same events by a subscriber of the test's own.
 *
 * <p>The mirror is how a test waits for the routers without sleeping: once it shows the server that took a request
 * holding the prompt's blocks, and every precise router has read as many event batches as the mirror, the routers'
 * indexes hold what the servers cache ({@link #settle}).
 */
final class EventedSimulators implements AutoCloseable {
  static final int BLOCK_SIZE = 16;
  static final String HASH_SEED = "42";
  private static final Duration WAIT = Duration.ofSeconds(20);
  private static final Pattern BATCHES =
      Pattern.compile("(?m)^modelplane_router_kv_event_batches_total\\{pool=\"static/static\"} ([0-9.eE+-]+)$");
  private static final VllmBlockHasher HASHER = new VllmBlockHasher(HASH_SEED);

  private final List<Simulator> sims = new ArrayList<>();
  private final List<String> endpoints = new ArrayList<>();
  private final List<Router> routers = new ArrayList<>();
  private final List<RouterProcess> processes = new ArrayList<>();
  /** Base URLs of the routers that read events. */
  private final List<String> precise = new ArrayList<>();
  private final Map<String, Set<Long>> cached = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> batches = new ConcurrentHashMap<>();
  private final AtomicLong removed = new AtomicLong();
  private final KvEventSubscriber mirror;
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(5)).build();
  private final int eventsPort = FreePorts.pickOnEveryAddress();
  private final int replayPort = FreePorts.pickOnEveryAddress();
  private int warmUps;

  /** Starts {@code n} simulators of {@code kvBlocks} cache blocks each, on 127.0.0.2, 127.0.0.3, … */
  EventedSimulators(int n, int kvBlocks) {
    mirror = new KvEventSubscriber("e2e-mirror", "kv@", new KvEventSubscriber.Listener() {
      @Override
      public void onBatch(KvEventSubscriber.Source source, KvTopic topic, KvEventBatch batch) {
        Set<Long> blocks = cached.get(source.id());
        for (KvEvent e : batch.events()) {
          switch (e) {
            case KvEvent.BlockStored s -> Arrays.stream(s.blockHashes()).forEach(blocks::add);
            case KvEvent.BlockRemoved r -> {
              Arrays.stream(r.blockHashes()).forEach(blocks::remove);
              removed.addAndGet(r.blockHashes().length);
            }
            case KvEvent.AllBlocksCleared c -> blocks.clear();
            case KvEvent.Unknown u -> { }
          }
        }
        batches.get(source.id()).incrementAndGet();
      }

      @Override
      public void onReset(KvEventSubscriber.Source source, String reason) {
        cached.get(source.id()).clear();
      }
    });
    try {
      for (int i = 0; i < n; i++) {
        String host = "127.0.0." + (2 + i);
        Simulator sim = Simulator.start(SimulatorConfig.of("m").host(host).port(0).seed(31 + i).mode("echo")
            .timeToFirstToken(Duration.ofMillis(2)).interTokenLatency(Duration.ofMillis(1))
            .blockSize(BLOCK_SIZE).hashSeed(HASH_SEED).kvCacheSize(kvBlocks)
            .kvEventsConfig("{\"enable_kv_cache_events\":true,\"publisher\":\"zmq\",\"endpoint\":\"tcp://*:%d\","
                .formatted(eventsPort) + "\"replay_endpoint\":\"tcp://*:%d\",\"topic\":\"kv@%s@m\"}"
                .formatted(replayPort, host)));
        sims.add(sim);
        String endpoint = host + ":" + sim.port();
        endpoints.add(endpoint);
        cached.put(endpoint, ConcurrentHashMap.newKeySet());
        batches.put(endpoint, new AtomicLong());
        mirror.add(new KvEventSubscriber.Source(endpoint, "tcp://" + host + ":" + eventsPort,
            "tcp://" + host + ":" + replayPort));
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  List<String> endpoints() {
    return List.copyOf(endpoints);
  }

  /**
   * A router in front of every simulator, with the word tokenizer the simulators use. {@code configYaml} null is the
   * default configuration (the approximate prefix scorer); otherwise {@code %1$d} and {@code %2$d} in it are the
   * simulators' event and replay ports, and the router counts as one that reads events.
   */
  Router router(String configYaml) throws Exception {
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withMaxBodyBytes(1 << 20)
        .withAccessLog(false);
    String config = configYaml == null ? null : configYaml.formatted(eventsPort, replayPort);
    Router r = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, String.join(",", endpoints), List.of(),
        null, config, MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false),
        ModelTokenizers.parse(List.of("word"), TokenizerCache.shared()));
    routers.add(r);
    r.start();
    if (config != null) {
      precise.add(base(r));
    }
    return r;
  }

  /**
   * A router reading events in a JVM of its own ({@link RouterProcess}), in front of every simulator, with the word
   * tokenizer; {@code configYaml} as for {@link #router}. Returns its base URL.
   */
  String routerProcess(String configYaml, Path log) throws Exception {
    RouterProcess p = RouterProcess.start(String.join(",", endpoints), configYaml.formatted(eventsPort, replayPort),
        log);
    processes.add(p);
    precise.add(p.base());
    return p.base();
  }

  /**
   * Sends distinct prompts straight to every simulator until each has published something the mirror and every
   * precise router read: a subscriber that connected after a server's first batches fetches them from its replay
   * socket when the next one arrives, so afterwards nobody has missed anything.
   */
  void warmUp() throws Exception {
    for (int round = 0; round < 20; round++) {
      for (String e : endpoints) {
        complete("http://" + e, prompt("warm up " + warmUps++, 17));
      }
      try {
        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(20))
            .until(() -> batches.values().stream().allMatch(b -> b.get() > 0) && routersCaughtUp());
        return;
      } catch (ConditionTimeoutException stillJoining) {
        // another round: a subscriber sees what it missed when the next batch arrives
      }
    }
    throw new AssertionError("the routers and the mirror never read the simulators' events");
  }

  /** {@code words} words: {@code tag} then numbered ones, one token each for the word tokenizer. */
  static String prompt(String tag, int words) {
    StringBuilder b = new StringBuilder();
    String[] parts = tag.split(" ");
    for (int i = 0; i < words; i++) {
      b.append(i == 0 ? "" : " ").append(i < parts.length ? parts[i] : "w" + i);
    }
    return b.toString();
  }

  /** The wire hashes of {@code prompt}'s full blocks, as the simulators name them. */
  static long[] blocks(String prompt) {
    int[] tokens = WordTokenizer.INSTANCE.encode(prompt, true);
    return Arrays.stream(HASHER.hashPrompt(tokens, BLOCK_SIZE, null, null)).mapToLong(VllmBlockHasher::wireValue)
        .toArray();
  }

  /** Tokens of {@code prompt} a server that holds every full block of it reuses (vLLM recomputes the last one). */
  static int reusable(String prompt) {
    int tokens = WordTokenizer.INSTANCE.encode(prompt, true).length;
    return (tokens - 1) / BLOCK_SIZE * BLOCK_SIZE;
  }

  /** Blocks the simulators have evicted so far, by their events. */
  long evictions() {
    return removed.get();
  }

  /** Whether the events say {@code endpoint} holds every full block of {@code prompt}. */
  boolean holdsAll(String endpoint, String prompt) {
    Set<Long> held = cached.get(endpoint);
    return Arrays.stream(blocks(prompt)).allMatch(held::contains);
  }

  /** Whether the events say {@code endpoint} holds any full block of {@code prompt}. */
  boolean holdsAny(String endpoint, String prompt) {
    Set<Long> held = cached.get(endpoint);
    return Arrays.stream(blocks(prompt)).anyMatch(held::contains);
  }

  /** Waits until the mirror shows {@code endpoint} holding {@code prompt} and every precise router has caught up. */
  void settle(String endpoint, String prompt) {
    await().atMost(WAIT).pollInterval(Duration.ofMillis(2)).until(() -> holdsAll(endpoint, prompt)
        && routersCaughtUp());
  }

  /** Waits until every precise router has read as many event batches as the mirror. */
  void settle() {
    await().atMost(WAIT).pollInterval(Duration.ofMillis(2)).until(this::routersCaughtUp);
  }

  private boolean routersCaughtUp() throws Exception {
    long seen = batches.values().stream().mapToLong(AtomicLong::get).sum();
    for (String base : precise) {
      Matcher m = BATCHES.matcher(get(base + "/metrics"));
      if (!m.find() || (long) Double.parseDouble(m.group(1)) != seen) {
        return false;
      }
    }
    return true;
  }

  /** A one-token completion of {@code prompt} at {@code base} (a router's or a simulator's); the endpoint served. */
  String complete(String base, String prompt) throws Exception {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/completions"))
        .timeout(Duration.ofSeconds(20)).header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"max_tokens\":1,\"prompt\":\"" + prompt + "\"}"))
        .build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return r.headers().firstValue("x-gateway-destination-endpoint-served").orElse(null);
  }

  /** A router's base URL. */
  static String base(Router r) {
    return "http://127.0.0.1:" + r.gatewayPort();
  }

  /** {@code vllm:prefix_cache_hits_total} of a simulator: prompt tokens served from its prefix cache. */
  long hits(String endpoint) throws Exception {
    return counter(endpoint, "vllm:prefix_cache_hits_total");
  }

  /** {@code vllm:prefix_cache_queries_total} of a simulator: prompt tokens looked up in its prefix cache. */
  long queries(String endpoint) throws Exception {
    return counter(endpoint, "vllm:prefix_cache_queries_total");
  }

  private long counter(String endpoint, String name) throws Exception {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name) + "(\\{[^}]*})? ([0-9.eE+-]+)$")
        .matcher(get("http://" + endpoint + "/metrics"));
    double sum = 0;
    while (m.find()) {
      sum += Double.parseDouble(m.group(2));
    }
    return (long) sum;
  }

  private String get(String url) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(5)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  @Override
  public void close() {
    routers.forEach(Router::close);
    processes.forEach(RouterProcess::close);
    mirror.close();
    sims.forEach(Simulator::close);
    http.close();
  }
}
