package dev.modelplane.router.prefix.precise;

import static dev.modelplane.router.prefix.precise.EngineCache.tokens;
import static dev.modelplane.router.prefix.precise.WordTokenizer.prompt;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.kvevents.KvEvent;
import dev.modelplane.common.kvevents.KvEvent.BlockStored;
import dev.modelplane.common.kvevents.KvEventBatch;
import dev.modelplane.router.TestEndpoints;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PromptTokenizer;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The score, its fallbacks, the request's keys (adapter, salt, computed once) and speculative indexing. */
class PrecisePrefixCacheScorerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final PoolKey POOL = new PoolKey("ns", "pool");
  private static final int BLOCK = 4;
  private static final long SECOND = 1_000_000_000L;

  private final Counters counters = new Counters();
  private final AtomicLong clock = new AtomicLong(1_000 * SECOND);
  private final WordTokenizer tokenizer = new WordTokenizer("m", "my-lora");
  private final List<PrecisePrefixCacheScorer> scorers = new ArrayList<>();
  private EndpointPool pool;

  @AfterEach
  void close() {
    scorers.forEach(PrecisePrefixCacheScorer::close);
  }

  /**
   * A scorer over a new pool of a, b and c (the pool {@link #candidates} come from); their publishers' port has no
   * listener, events are fed directly.
   */
  private PrecisePrefixCacheScorer scorer(boolean speculative, PromptTokenizer tokenizer) throws IOException {
    PrecisePrefixConfig d = PrecisePrefixConfig.DEFAULT;
    PrecisePrefixConfig config = new PrecisePrefixConfig(BLOCK, "42", d.zmqEndpoint(), d.topicFilter(), true,
        unusedPort(), 0, d.indexSize(), d.podCacheSize(), speculative, Duration.ofSeconds(2));
    PrecisePrefixCacheScorer scorer = new PrecisePrefixCacheScorer("precise", config,
        new PluginEnvironment(clock::get, ThreadLocalRandom::current, Runnable::run, counters, tokenizer));
    scorers.add(scorer);
    pool = new EndpointPool(POOL);
    pool.addListener(scorer);
    pool.setEndpoints(List.of(endpoint("a", 18001), endpoint("b", 18002), endpoint("c", 18003)));
    return scorer;
  }

  private static Endpoint endpoint(String name, int port) {
    return new Endpoint(new EndpointId("ns", name), "127.0.0.1", port, Map.of());
  }

  private static int unusedPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private void publish(PrecisePrefixCacheScorer scorer, String pod, KvEvent event) {
    scorer.index(POOL).apply(new EndpointId("ns", pod), new KvEventBatch(1.0, List.of(event), 0));
  }

  private List<Candidate> candidates() {
    return pool.endpoints().stream().map(Candidate::new).toList();
  }

  private static double[] score(PrecisePrefixCacheScorer scorer, InferenceRequest request, List<Candidate> c) {
    double[] scores = new double[c.size()];
    scorer.score(new CycleState(), request, c, scores);
    return scores;
  }

  private static InferenceRequest chat(String model, String salt, String... contents) {
    ObjectNode body = JSON.createObjectNode().put("model", model);
    for (String content : contents) {
      body.withArray("messages").addObject().put("role", "user").put("content", content);
    }
    if (salt != null) {
      body.put("cache_salt", salt);
    }
    return new InferenceRequest("req", model, model, new LlmRequestBody(LlmRequestBody.Api.CHAT_COMPLETIONS, body),
        Map.of(), 0, "default-flow", 0);
  }

  private static SchedulingResult picked(Candidate c) {
    return new SchedulingResult("default", Map.of("default", new ProfileRunResult(List.of(c))));
  }

  @Test
  void anEndpointScoresTheLeadingBlocksItHoldsOverThePromptsFullBlocks() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, tokenizer);
    EngineCache a = new EngineCache("42", BLOCK, true);
    publish(scorer, "a", a.serve(tokens(1, 16), null, null));
    publish(scorer, "b", new EngineCache("42", BLOCK, true).serve(tokens(1, 4), null, null));
    InferenceRequest request = TestEndpoints.completion("m", prompt(1, 18));
    assertThat(score(scorer, request, candidates())).containsExactly(1.0, 0.25, 0.0);

    publish(scorer, "a", a.evict(a.hashes(tokens(1, 16), null, null)[2]));
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 18)), candidates()))
        .as("a hole ends the match").containsExactly(0.5, 0.25, 0.0);
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 3)), candidates()))
        .as("no full block").containsExactly(0.0, 0.0, 0.0);
    assertThat(counters.counts.keySet()).noneMatch(k -> k.startsWith("fallback:"));
  }

  @Test
  void thePreciseMatchReplacesTheApproximateOneOnTheCandidates() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, tokenizer);
    publish(scorer, "b", new EngineCache("42", BLOCK, true).serve(tokens(1, 8), null, null));
    List<Candidate> c = candidates();
    c.forEach(x -> x.prefixMatch(new PrefixMatch(3, 4, BLOCK))); // what the approximate producer guessed
    scorer.prepareRequestData(TestEndpoints.completion("m", prompt(1, 18)), c);
    assertThat(c).map(x -> x.prefixMatch().matchBlocks()).containsExactly(0, 2, 0);
    assertThat(c).map(x -> x.prefixMatch().totalBlocks()).containsExactly(4, 4, 4);
    assertThat(scorer.refines()).as("runs after the approximate producer").isTrue();

    List<Candidate> fallback = candidates();
    fallback.forEach(x -> x.prefixMatch(new PrefixMatch(3, 4, BLOCK)));
    scorer.prepareRequestData(TestEndpoints.completion("unknown-model", prompt(1, 18)), fallback);
    assertThat(fallback).as("no tokenizer: the approximate match stays").map(x -> x.prefixMatch().matchBlocks())
        .containsExactly(3, 3, 3);
  }

  @Test
  void untilAServersEventsAreIndexedItScoresFromTheApproximateIndex() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, tokenizer);
    List<Candidate> c = candidates();
    c.get(0).prefixMatch(new PrefixMatch(1, 4, 16));
    c.get(1).prefixMatch(new PrefixMatch(4, 4, 16));
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 16)), c)).containsExactly(0.25, 1.0, 0.0);
    assertThat(counters.get("fallback:ns/pool:no_events")).isEqualTo(1);
    assertThat(scorer.statuses()).extracting(PoolIndex.Status::precise).containsExactly(false);

    publish(scorer, "c", new EngineCache("42", BLOCK, true).serve(tokens(1, 16), null, null));
    assertThat(scorer.statuses()).extracting(PoolIndex.Status::precise).containsExactly(true);
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 16)), c)).containsExactly(0.0, 0.0, 1.0);
  }

  @Test
  void aRequestItCannotTokenizeIsScoredFromTheApproximateIndex() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, PromptTokenizer.NONE);
    publish(scorer, "c", new EngineCache("42", BLOCK, true).serve(tokens(1, 16), null, null));
    List<Candidate> c = candidates();
    c.get(0).prefixMatch(new PrefixMatch(2, 4, 16));
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 16)), c)).containsExactly(0.5, 0.0, 0.0);
    assertThat(counters.get("fallback:ns/pool:no_tokenizer")).isEqualTo(1);

    ObjectNode responses = JSON.createObjectNode().put("model", "m").put("input", prompt(1, 16));
    InferenceRequest other = new InferenceRequest("r", "m", "m",
        new LlmRequestBody(LlmRequestBody.Api.RESPONSES, responses), Map.of(), 0, "default-flow", 0);
    assertThat(score(scorer, other, c)).containsExactly(0.5, 0.0, 0.0);
    assertThat(counters.get("fallback:ns/pool:prompt")).isEqualTo(1);
  }

  @Test
  void theRequestIsTokenizedAndHashedOnceHoweverManyProfilesScoreIt() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, tokenizer);
    publish(scorer, "b", new EngineCache("42", BLOCK, true).serve(tokens(1, 8), null, null));
    InferenceRequest request = TestEndpoints.completion("m", prompt(1, 8));
    assertThat(score(scorer, request, candidates())).containsExactly(0.0, 1.0, 0.0);
    assertThat(score(scorer, request, candidates().subList(1, 3))).containsExactly(1.0, 0.0);
    assertThat(tokenizer.calls.get()).isEqualTo(1);
  }

  @Test
  void aLoraRequestsBlocksCarryTheAdaptersName() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, tokenizer);
    publish(scorer, "a", new EngineCache("42", BLOCK, false).serve(tokens(1, 8), "my-lora", null));
    publish(scorer, "b", new EngineCache("42", BLOCK, false).serve(tokens(1, 8), null, null));
    assertThat(score(scorer, TestEndpoints.completion("my-lora", prompt(1, 8)), candidates()))
        .containsExactly(1.0, 0.0, 0.0);
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 8)), candidates()))
        .containsExactly(0.0, 1.0, 0.0);

    // A server that sends the adapter in its extra keys but not its name: the candidates' metrics tell.
    PrecisePrefixCacheScorer other = scorer(false, new WordTokenizer("fresh"));
    BlockStored s = new EngineCache("42", BLOCK, true).serve(tokens(1, 8), "fresh", null);
    publish(other, "c", new BlockStored(s.blockHashes(), null, s.tokenIds(), BLOCK, null, "GPU", null, s.extraKeys(),
        0));
    assertThat(score(other, TestEndpoints.completion("fresh", prompt(1, 8)), candidates()))
        .as("not known as an adapter yet").containsExactly(0.0, 0.0, 0.0);
    pool.endpoints().get(2).updateMetrics(MetricsSnapshot.of(0, 0, 1).withLora(Set.of("fresh"), Set.of(), 4));
    assertThat(score(other, TestEndpoints.completion("fresh", prompt(1, 8)), candidates()))
        .containsExactly(0.0, 0.0, 1.0);
  }

  @Test
  void aChatRequestsCacheSaltScopesItsBlocks() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, tokenizer);
    InferenceRequest salted = chat("m", "tenant-1", "one two three four five six seven eight");
    int[] tokens = tokenizer.tokenize("m", new PromptTokenizer.Chat(salted.body().raw()));
    publish(scorer, "a", new EngineCache("42", BLOCK, true).serve(tokens, null, "tenant-1"));
    assertThat(score(scorer, salted, candidates())).containsExactly(1.0, 0.0, 0.0);
    assertThat(score(scorer, chat("m", null, "one two three four five six seven eight"), candidates()))
        .containsExactly(0.0, 0.0, 0.0);
    assertThat(score(scorer, chat("m", "tenant-2", "one two three four five six seven eight"), candidates()))
        .containsExactly(0.0, 0.0, 0.0);
  }

  @Test
  void aPickedEndpointHoldsThePromptForTheTtlUnlessItsServerSaysOtherwise() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(true, tokenizer);
    publish(scorer, "c", new EngineCache("42", BLOCK, true).serve(tokens(900, 4), null, null)); // the pool is fed
    InferenceRequest first = TestEndpoints.completion("m", prompt(1, 12));
    List<Candidate> c = candidates();
    assertThat(score(scorer, first, c)).containsExactly(0.0, 0.0, 0.0);
    scorer.preRequest(first, picked(c.get(1)));
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 14)), candidates()))
        .containsExactly(0.0, 1.0, 0.0);

    clock.addAndGet(2 * SECOND - 1);
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 12)), candidates()))
        .containsExactly(0.0, 1.0, 0.0);
    clock.addAndGet(1);
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 12)), candidates()))
        .as("the guess expired").containsExactly(0.0, 0.0, 0.0);

    // The server's event arrives while a new guess stands: the event outlives it.
    InferenceRequest second = TestEndpoints.completion("m", prompt(1, 12));
    score(scorer, second, c);
    scorer.preRequest(second, picked(c.get(0)));
    EngineCache a = new EngineCache("42", BLOCK, true);
    publish(scorer, "a", a.serve(tokens(1, 8), null, null));
    clock.addAndGet(10 * SECOND);
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 12)), candidates()))
        .containsExactly(2.0 / 3, 0.0, 0.0);

    // A removal drops the guess too.
    InferenceRequest third = TestEndpoints.completion("m", prompt(1, 12));
    score(scorer, third, c);
    scorer.preRequest(third, picked(c.get(0)));
    publish(scorer, "a", a.evict(a.hashes(tokens(1, 8), null, null)[0]));
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 12)), candidates()))
        .containsExactly(0.0, 0.0, 0.0);
    assertThat(scorer.statuses().getFirst().speculative()).isPositive();
  }

  @Test
  void withoutSpeculativeIndexingAPickChangesNothing() throws IOException {
    PrecisePrefixCacheScorer scorer = scorer(false, tokenizer);
    publish(scorer, "c", new EngineCache("42", BLOCK, true).serve(tokens(900, 4), null, null));
    InferenceRequest first = TestEndpoints.completion("m", prompt(1, 12));
    List<Candidate> c = candidates();
    score(scorer, first, c);
    scorer.preRequest(first, picked(c.get(1)));
    assertThat(score(scorer, TestEndpoints.completion("m", prompt(1, 12)), candidates()))
        .containsExactly(0.0, 0.0, 0.0);
    assertThat(scorer.statuses().getFirst().speculative()).isZero();
  }
}
