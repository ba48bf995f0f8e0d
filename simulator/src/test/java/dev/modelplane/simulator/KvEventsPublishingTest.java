package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.common.kvevents.EventLayout;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.common.kvevents.KvEventSubscriber;
import dev.modelplane.common.kvevents.KvTopic;
import dev.modelplane.common.kvevents.VllmBlockHasher;
import dev.modelplane.common.tokenizer.WordTokenizer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The simulator's KV-cache events, read over loopback as a router reads a vLLM server's. */
class KvEventsPublishingTest {
  private static final Duration WAIT = Duration.ofSeconds(15);

  /** Collects batches per source; forgets a source on reset. */
  static final class Collector implements KvEventSubscriber.Listener {
    final Map<String, List<KvEventBatch>> batches = new ConcurrentHashMap<>();
    final List<KvTopic> topics = new CopyOnWriteArrayList<>();

    @Override
    public void onBatch(KvEventSubscriber.Source source, KvTopic topic, KvEventBatch batch) {
      topics.add(topic);
      batches.computeIfAbsent(source.id(), k -> new CopyOnWriteArrayList<>()).add(batch);
    }

    @Override
    public void onReset(KvEventSubscriber.Source source, String reason) {
      batches.remove(source.id());
    }

    List<BlockStored> stored(String source) {
      return batches.getOrDefault(source, List.of()).stream().flatMap(b -> b.events().stream())
          .filter(BlockStored.class::isInstance).map(BlockStored.class::cast).toList();
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  @Test
  void aCompletionsBlocksArePublishedWithTheTokensAndVllmsHashes() throws Exception {
    int pub = freePort();
    int replay = freePort();
    String config = """
        {"enable_kv_cache_events": true, "endpoint": "tcp://*:%d", "replay_endpoint": "tcp://*:%d",
         "topic": "kv@127.0.0.1@m"}""".formatted(pub, replay);
    String prompt = EngineBehaviourTest.words("w", 40);
    try (Simulator sim = Simulator.start(EngineBehaviourTest.base().blockSize(16).hashSeed("42")
        .kvEventsConfig(config).kvEventsLayout(EventLayout.MAP))) {
      SimClient c = new SimClient(sim.port());
      assertThat(c.post("/v1/completions", SimClient.completion("m", prompt, 20, false)).status()).isEqualTo(200);
      Collector heard = new Collector();
      // Joining after the request: the replay socket gives what was published before.
      try (KvEventSubscriber sub = new KvEventSubscriber("test", "kv@", heard)) {
        sub.add(new KvEventSubscriber.Source("sim", "tcp://127.0.0.1:" + pub, "tcp://127.0.0.1:" + replay));
        int[] ids = WordTokenizer.INSTANCE.tokenize(prompt, true).ids();
        int promptBlocks = ids.length / 16;
        await().atMost(WAIT).until(() -> heard.stored("sim").stream().mapToInt(s -> s.blockHashes().length).sum()
            >= promptBlocks);
        List<Long> hashes = new ArrayList<>();
        List<Integer> tokens = new ArrayList<>();
        Long parent = null;
        for (BlockStored s : heard.stored("sim")) {
          assertThat(s.parentBlockHash()).as("each event continues the last").isEqualTo(parent);
          assertThat(s.blockSize()).isEqualTo(16);
          assertThat(s.medium()).isEqualTo("GPU");
          assertThat(s.loraName()).isNull();
          Arrays.stream(s.blockHashes()).forEach(hashes::add);
          Arrays.stream(s.tokenIds()).forEach(tokens::add);
          parent = s.blockHashes()[s.blockHashes().length - 1];
        }
        // The prompt's blocks first: its token ids, hashed as vLLM hashes them with seed "42".
        assertThat(tokens.subList(0, promptBlocks * 16)).containsExactlyElementsOf(
            IntStream.of(Arrays.copyOf(ids, promptBlocks * 16)).boxed().toList());
        byte[][] expected = new VllmBlockHasher("42").hashPrompt(ids, 16, null, null);
        assertThat(hashes.subList(0, promptBlocks)).containsExactlyElementsOf(
            Arrays.stream(expected).map(VllmBlockHasher::wireValue).toList());
        // Replayed batches carry no topic (vLLM's replay answers [seq, batch]); live ones carry the configured one.
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).until(() -> {
          c.post("/v1/completions", SimClient.completion("m", EngineBehaviourTest.words("x" + tokens.size(), 40), 1,
              false));
          return heard.topics.contains(new KvTopic("127.0.0.1", "m"));
        });
      }
    }
  }

  @Test
  void eachDataParallelRankPublishesOnItsOwnPort() throws Exception {
    int pub = freePort();
    try (ServerSocket next = new ServerSocket(pub + 1, 1, InetAddress.getLoopbackAddress())) {
      next.close(); // the rank-1 port is free too
    }
    String config = "{\"enable_kv_cache_events\": true, \"endpoint\": \"tcp://*:" + pub + "\"}";
    try (Simulator sim = Simulator.start(EngineBehaviourTest.base().dataParallelSize(2).kvEventsConfig(config))) {
      Collector heard = new Collector();
      try (KvEventSubscriber sub = new KvEventSubscriber("test", "", heard)) {
        sub.add(new KvEventSubscriber.Source("rank1", "tcp://127.0.0.1:" + (pub + 1), null));
        SimClient rank1 = new SimClient(sim.ports().get(1));
        int n = 0;
        while (heard.stored("rank1").isEmpty() && n++ < 100) {
          // PUB/SUB drops what is sent before the subscription is up: send until a batch arrives.
          rank1.post("/v1/completions", SimClient.completion("m", EngineBehaviourTest.words("r" + n, 40), 1, false));
          Thread.sleep(50);
        }
        assertThat(heard.stored("rank1")).isNotEmpty();
        assertThat(heard.batches.get("rank1").getFirst().dataParallelRank()).isEqualTo(1);
      }
    }
  }

  @Test
  void mistakesInTheEventFlagsAreReported() {
    assertThat(EngineBehaviourTest.base().kvEventsConfig("{\"enable\": true}").problems())
        .anyMatch(p -> p.contains("unknown key \"enable\""));
    assertThat(EngineBehaviourTest.base().kvEventsConfig("{\"enable_kv_cache_events\": true}").enableKvcache(false)
        .problems()).anyMatch(p -> p.contains("KV-cache events need prefix caching"));
    SimulatorConfig pickle = EngineBehaviourTest.base();
    pickle.prefixCachingHashAlgo = "sha256";
    assertThat(pickle.problems()).anyMatch(p -> p.contains("--prefix-caching-hash-algo sha256 is not simulated"));
    assertThat(EngineBehaviourTest.base().kvEventsConfig("{\"enable_kv_cache_events\": true}").problems())
        .isEmpty();
  }
}
