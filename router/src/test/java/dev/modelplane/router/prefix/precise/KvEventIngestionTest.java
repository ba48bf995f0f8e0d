package dev.modelplane.router.prefix.precise;

import static dev.modelplane.router.prefix.precise.EngineCache.concat;
import static dev.modelplane.router.prefix.precise.EngineCache.tokens;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import dev.modelplane.common.kvevents.EventLayout;
import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEvent.BlockRemoved;
import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.common.kvevents.KvEventPublisher;
import dev.modelplane.common.kvevents.KvEventSubscriber;
import dev.modelplane.common.kvevents.KvEventsConfig;
import dev.modelplane.common.kvevents.KvTopic;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Model servers publishing on loopback ({@link KvEventPublisher}) and routers reading them: each endpoint's own
 * socket, a bound socket all servers connect to, endpoints leaving, routers joining late and side by side.
 */
class KvEventIngestionTest {
  /**
   * A first message can take JeroMQ's handshake interval (30 s) and a reconnect: a small share of fresh connections
   * finish the TCP connect but not the ZeroMQ handshake until that timer drops them.
   */
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final PoolKey POOL = new PoolKey("ns", "pool");
  private static final EndpointId A = new EndpointId("ns", "a");
  private static final EndpointId B = new EndpointId("ns", "b");
  private static final int BLOCK = 4;
  /** A batch that changes no index: the removal of a block no one stored. */
  private static final List<KvEvent> NO_OP = List.of(new BlockRemoved(new long[] {1}, "GPU", null));

  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (int i = open.size() - 1; i >= 0; i--) {
      open.get(i).close();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static PrecisePrefixConfig config(boolean discover, String endpoint, int socketPort, int replayPort) {
    PrecisePrefixConfig d = PrecisePrefixConfig.DEFAULT;
    return new PrecisePrefixConfig(BLOCK, "42", endpoint, "kv@", discover, socketPort, replayPort, d.indexSize(),
        d.podCacheSize(), false, d.speculativeTtl());
  }

  /** A router's scorer over a pool of {@code endpoints}, with what it counted. */
  private record Router(PrecisePrefixCacheScorer scorer, EndpointPool pool, Counters counters) {
    PoolIndex index() {
      return scorer.index(POOL);
    }

    long batches() {
      return counters.get("batches:" + POOL);
    }
  }

  private Router router(PrecisePrefixConfig config, Endpoint... endpoints) {
    Counters counters = new Counters();
    PrecisePrefixCacheScorer scorer = new PrecisePrefixCacheScorer("precise", config,
        new PluginEnvironment(System::nanoTime, ThreadLocalRandom::current, Runnable::run, counters));
    open.add(scorer);
    EndpointPool pool = new EndpointPool(POOL);
    pool.addListener(scorer);
    pool.setEndpoints(List.of(endpoints));
    return new Router(scorer, pool, counters);
  }

  /** A model server's publisher, counting the batches it was given. */
  private static final class Server implements AutoCloseable {
    final KvEventPublisher pub;
    long queued;

    Server(KvEventPublisher pub) {
      this.pub = pub;
    }

    void publish(List<KvEvent> events) {
      if (pub.publish(events)) {
        queued++;
      }
    }

    /** Whether every batch it was given has gone out. */
    boolean sent() {
      return pub.published() >= queued;
    }

    @Override
    public void close() {
      pub.close();
    }
  }

  /** A server with vLLM's replay buffer (10,000 batches) and send high-water mark (100,000). */
  private Server server(String endpoint, Integer replayPort, String topic) {
    Server server = new Server(new KvEventPublisher(new KvEventsConfig(true, "zmq", endpoint,
        replayPort == null ? null : "tcp://*:" + replayPort, 10_000, 100_000, 2000, topic), EventLayout.MAP, 0,
        () -> 1.0));
    open.add(server);
    return server;
  }

  private static Endpoint endpoint(EndpointId id, int port) {
    return new Endpoint(id, "127.0.0.1", port, Map.of());
  }

  /** PUB/SUB drops what is sent before a subscription is up: publish until the router shows it. */
  private static void publishUntil(Server pub, List<KvEvent> events, BooleanSupplier seen) {
    await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
      pub.publish(events);
      return seen.getAsBoolean();
    });
  }

  /**
   * Waits until every router applied every batch the server sent. A last batch lost before a subscription was up is
   * replayed once a later one shows the gap, so a no-op batch follows each wait that ends short.
   */
  private static void settle(Server server, Router... routers) {
    long deadline = System.nanoTime() + WAIT.toNanos();
    while (System.nanoTime() < deadline) {
      server.publish(NO_OP);
      try {
        await().atMost(Duration.ofMillis(500)).until(() -> server.sent()
            && Arrays.stream(routers).allMatch(r -> r.batches() >= server.queued));
        return;
      } catch (ConditionTimeoutException e) {
        // another no-op
      }
    }
    fail("routers did not apply the server's " + server.queued + " batches: "
        + Arrays.stream(routers).map(Router::batches).toList());
  }

  /**
   * A router that joins next to the running server and receives what the server kept. A replay request sent on a
   * connection whose handshake stalls (see {@link #WAIT}) times out, and that router starts without the history;
   * another one is started then.
   */
  private Router joined(PrecisePrefixConfig config, Server server) {
    await().atMost(WAIT).until(server::sent);
    for (int attempt = 0; attempt < 5; attempt++) {
      Router r = router(config, endpoint(A, 8001));
      try {
        await().atMost(Duration.ofSeconds(5)).until(() -> r.batches() >= server.queued);
        return r;
      } catch (ConditionTimeoutException e) {
        r.scorer().close();
      }
    }
    return fail("no router received the server's history from its replay socket");
  }

  private static long[] keys(int[] tokens, String lora) {
    return Arrays.stream(new VllmBlockHasher("42").hashPrompt(tokens, BLOCK, lora, null))
        .mapToLong(VllmBlockHasher::wireValue).toArray();
  }

  private static boolean holds(Router r, EndpointId pod, long[] keys) {
    PoolIndex index = r.index();
    if (index == null) {
      return false;
    }
    Map<Long, Set<EndpointId>> contents = index.contents();
    return Arrays.stream(keys).allMatch(k -> contents.getOrDefault(k, Set.of()).contains(pod));
  }

  @Test
  void discoveryModeReadsEachEndpointsServerAndForgetsAnEndpointTheMomentItLeaves() throws Exception {
    int port = freePort();
    Server server = server("tcp://*:" + port, null, "kv@127.0.0.1:8001@m");
    Router router = router(config(true, "tcp://*:5557", port, 0), endpoint(A, 8001));
    EngineCache engine = new EngineCache("42", BLOCK, true);
    int[] prompt = tokens(1, 12);
    publishUntil(server, List.of(engine.serve(prompt, null, null)), () -> holds(router, A, keys(prompt, null)));
    assertThat(router.counters().get("agree:" + POOL)).isPositive();
    assertThat(router.index().precise()).isTrue();

    PoolIndex index = router.index();
    router.pool().setEndpoints(List.of());
    assertThat(index.contents()).as("forgotten at once, not when the socket closes").isEmpty();
    assertThat(router.index()).isNull();
    long batches = router.batches();
    server.publish(List.of(new EngineCache("42", BLOCK, true).serve(tokens(40, 8), null, null)));
    await().atMost(WAIT).until(server::sent);
    Thread.sleep(300);
    assertThat(index.contents()).isEmpty();
    assertThat(router.batches()).as("the endpoint's socket is closed").isEqualTo(batches);
  }

  @Test
  void aRouterStartingNextToRunningServersRebuildsTheIndexFromTheirReplaySocketsAndTwoRoutersAgree()
      throws Exception {
    int port = freePort();
    int replayPort = freePort();
    Server server = server("tcp://*:" + port, replayPort, "kv@127.0.0.1:8001@m");
    PrecisePrefixConfig config = config(true, "tcp://*:5557", port, replayPort);
    PoolIndex reference = new PoolIndex(POOL.toString(), config, PluginObserver.NONE);
    reference.join(A);
    EngineCache engine = new EngineCache("42", BLOCK, true);
    List<List<KvEvent>> history = new ArrayList<>();
    int[] system = tokens(1, 12);
    history.add(List.of(engine.serve(system, null, null)));
    history.add(List.of(engine.serve(concat(system, tokens(100, 8)), null, null),
        engine.serve(tokens(500, 8), null, null)));
    history.add(List.of(engine.evict(engine.hashes(tokens(500, 8), null, null)[1])));
    history.add(List.of(engine.serve(tokens(1, 8), "my-lora", null)));

    Router first = router(config, endpoint(A, 8001));
    // Subscribed before the history starts: a batch is replayed when a later one shows it missing, which needs one.
    publishUntil(server, NO_OP, () -> first.batches() > 0);
    for (List<KvEvent> batch : history.subList(0, 2)) {
      server.publish(batch);
      reference.apply(A, new KvEventBatch(1.0, batch, 0));
    }
    settle(server, first);
    assertThat(first.index().contents()).isEqualTo(reference.contents()).isNotEmpty();
    for (List<KvEvent> batch : history.subList(2, 4)) {
      server.publish(batch);
      reference.apply(A, new KvEventBatch(1.0, batch, 0));
    }
    settle(server, first);
    Map<Long, Set<EndpointId>> before = first.index().contents();
    assertThat(before).isEqualTo(reference.contents());
    first.scorer().close();

    // A restarted router and a second one start while the server keeps running: both ask it for what it kept.
    Router restarted = joined(config, server);
    Router second = joined(config, server);
    assertThat(restarted.index().contents()).isEqualTo(before);
    assertThat(second.index().contents()).isEqualTo(before);

    List<KvEvent> live = List.of(engine.serve(concat(system, tokens(300, 4)), null, null));
    server.publish(live);
    reference.apply(A, new KvEventBatch(1.0, live, 0));
    settle(server, restarted, second);
    assertThat(restarted.index().contents()).isEqualTo(reference.contents()).isEqualTo(second.index().contents())
        .isNotEqualTo(before);
    assertThat(restarted.counters().get("skipped:" + POOL + ":unknown_parent")).isZero();
  }

  @Test
  void centralModeBindsServersConnectAndTheTopicNamesTheEndpoint() throws Exception {
    int port = freePort();
    Router router = router(config(false, "tcp://*:" + port, 5557, 0), endpoint(A, 8001), endpoint(B, 8002));
    String connect = "tcp://127.0.0.1:" + port;
    Server serverA = server(connect, null, KvTopic.of("127.0.0.1:8001", "m"));
    Server serverB = server(connect, null, KvTopic.of("127.0.0.1:8002", "m"));
    Server stranger = server(connect, null, KvTopic.of("10.9.9.9", "m"));
    int[] promptA = tokens(1, 8);
    int[] promptB = tokens(200, 8);
    publishUntil(serverA, List.of(new EngineCache("42", BLOCK, true).serve(promptA, null, null)),
        () -> holds(router, A, keys(promptA, null)));
    publishUntil(serverB, List.of(new EngineCache("42", BLOCK, true).serve(promptB, null, null)),
        () -> holds(router, B, keys(promptB, null)));
    publishUntil(stranger, NO_OP, () -> router.counters().get("skipped::unknown_pod") > 0);
    assertThat(holds(router, B, keys(promptA, null))).isFalse();
    assertThat(holds(router, A, keys(promptB, null))).isFalse();

    // A topic with a bare address names every endpoint there.
    Server host = server(connect, null, KvTopic.of("127.0.0.1", "m"));
    int[] shared = tokens(700, 8);
    publishUntil(host, List.of(new EngineCache("42", BLOCK, true).serve(shared, null, null)),
        () -> holds(router, A, keys(shared, null)) && holds(router, B, keys(shared, null)));

    // Server A restarts (its numbering starts again): what it held is forgotten, B's blocks stay. It sent more
    // batches before than the new one can send until it is heard (one per 50 ms for at most WAIT), so the new
    // numbering is heard as going back, not as a gap.
    long seen = router.batches();
    long target = serverA.queued + 1500;
    while (serverA.queued < target) {
      long before = serverA.queued;
      serverA.publish(NO_OP);
      if (serverA.queued == before) {
        Thread.sleep(5); // the publishing queue is full
      }
    }
    await().atMost(WAIT).until(() -> router.batches() >= seen + 1500);
    serverA.close();
    Server restartedA = server(connect, null, KvTopic.of("127.0.0.1:8001", "m"));
    int[] after = tokens(900, 8);
    assertThat(holds(router, A, keys(promptA, null))).isTrue();
    publishUntil(restartedA, List.of(new EngineCache("42", BLOCK, true).serve(after, null, null)),
        () -> holds(router, A, keys(after, null)));
    assertThat(holds(router, A, keys(promptA, null))).isFalse();
    assertThat(holds(router, A, keys(shared, null))).isFalse();
    assertThat(holds(router, B, keys(promptB, null))).isTrue();
    assertThat(holds(router, B, keys(shared, null))).isTrue();
  }

  @Test
  void lostBatchesAndMalformedMessagesAreCountedPerPool() {
    Counters counters = new Counters();
    KvEventIngestion ingestion = new KvEventIngestion(config(true, "tcp://*:5557", 1, 0), counters);
    open.add(ingestion);
    EndpointPool pool = new EndpointPool(POOL);
    pool.addListener(ingestion);
    pool.setEndpoints(List.of(endpoint(A, 8001)));
    KvEventSubscriber.Source source = new KvEventSubscriber.Source(A + "@" + POOL, "tcp://127.0.0.1:1", null);
    ingestion.onGap(source, 3);
    ingestion.onMalformed(source, "a message of 2 frames");
    ingestion.onGap(new KvEventSubscriber.Source("central", "tcp://*:1", null), 2);
    assertThat(counters.get("lost:" + POOL)).isEqualTo(3);
    assertThat(counters.get("malformed:" + POOL)).isEqualTo(1);
    assertThat(counters.get("lost:")).isEqualTo(2);
  }
}
