package dev.modelplane.router.prefix;

import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.request.RequestParser;
import dev.modelplane.router.request.RequestParsers;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.RequestJson;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.TestEndpoints.completion;
import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;

class ApproxPrefixCacheProducerTest {
  private final List<long[]> observed = new ArrayList<>();
  private final ApproxPrefixCacheProducer producer = new ApproxPrefixCacheProducer("p", PrefixCacheConfig.DEFAULT,
      new PrefixIndex(100), Runnable::run, new PluginObserver() {
        @Override
        public void prefixMatched(long matchedBytes, long totalBytes) {
          observed.add(new long[] {matchedBytes, totalBytes});
        }
      });

  private List<Candidate> candidates(MetricsSnapshot a, MetricsSnapshot b) {
    return List.of(new Candidate(state("a", a)), new Candidate(state("b", b)));
  }

  @Test
  void learnsThePickAndMatchesNextTime() {
    String prompt = "z".repeat(64 * 5 + 10);
    InferenceRequest first = completion("m", prompt);
    List<Candidate> c1 = candidates(MetricsSnapshot.NONE, MetricsSnapshot.NONE);
    producer.prepareRequestData(first, c1);
    assertThat(c1.get(0).prefixMatch().totalBlocks()).isEqualTo(5);
    assertThat(c1.get(0).prefixMatch().matchBlocks()).isZero();
    producer.preRequest(first, new SchedulingResult("default", Map.of("default", new ProfileRunResult(List.of(c1.get(1))))));

    InferenceRequest second = completion("m", prompt + " and more text");
    List<Candidate> c2 = candidates(MetricsSnapshot.NONE, MetricsSnapshot.NONE);
    producer.prepareRequestData(second, c2);
    assertThat(c2.get(0).prefixMatch().matchBlocks()).isZero();
    assertThat(c2.get(1).prefixMatch().matchBlocks()).isEqualTo(5);
    producer.preRequest(second, new SchedulingResult("default", Map.of("default", new ProfileRunResult(List.of(c2.get(1))))));
    assertThat(observed.get(1)).containsExactly(5 * 64, 5 * 64);
  }

  @Test
  void tokenizeAndRenderRequestsAreNotIndexed() {
    String prompt = "w".repeat(64 * 4);
    String[][] requests = {
        {"/tokenize", "{\"model\":\"m\",\"prompt\":\"" + prompt + "\"}"},
        {"/v1/completions/render", "{\"model\":\"m\",\"prompt\":\"" + prompt + "\"}"},
        {"/v1/chat/completions/render", "{\"model\":\"m\",\"messages\":[\"" + prompt + "\"]}"}};
    for (String[] r : requests) {
      RequestParser parser = RequestParsers.defaults().forPath(r[0]);
      LlmRequestBody body = parser.parse(r[1].getBytes(StandardCharsets.UTF_8), "application/json",
          RequestJson.defaults());
      InferenceRequest request = new InferenceRequest("req-" + r[0], "m", "m", body, Map.of(), 0, "flow", 0);
      List<Candidate> c = candidates(MetricsSnapshot.NONE, MetricsSnapshot.NONE);
      producer.prepareRequestData(request, c);
      assertThat(c.get(0).prefixMatch().totalBlocks()).as(r[0]).isZero();
      producer.preRequest(request, new SchedulingResult("d", Map.of("d", new ProfileRunResult(List.of(c.get(1))))));
    }
    List<Candidate> next = candidates(MetricsSnapshot.NONE, MetricsSnapshot.NONE);
    producer.prepareRequestData(completion("m", prompt), next);
    assertThat(next.get(1).prefixMatch().matchBlocks()).as("nothing was learnt from them").isZero();
    assertThat(next.get(1).prefixMatch().totalBlocks()).isEqualTo(4);
  }

  @Test
  void differentModelDoesNotMatch() {
    String prompt = "q".repeat(200);
    InferenceRequest first = completion("m1", prompt);
    List<Candidate> c1 = candidates(MetricsSnapshot.NONE, MetricsSnapshot.NONE);
    producer.prepareRequestData(first, c1);
    producer.preRequest(first, new SchedulingResult("d", Map.of("d", new ProfileRunResult(List.of(c1.get(0))))));
    List<Candidate> c2 = candidates(MetricsSnapshot.NONE, MetricsSnapshot.NONE);
    producer.prepareRequestData(completion("m2", prompt), c2);
    assertThat(c2.get(0).prefixMatch().matchBlocks()).isZero();
  }

  @Test
  void autoTuneTakesBlockSizeFromTheFirstCandidate() {
    MetricsSnapshot vllm = MetricsSnapshot.of(0, 0, 0).withCache(32, 1000);
    List<Candidate> c = candidates(vllm, MetricsSnapshot.NONE);
    producer.prepareRequestData(completion("m", "w".repeat(128 * 3)), c);
    assertThat(c.get(0).prefixMatch().blockSizeTokens()).isEqualTo(32);
    assertThat(c.get(0).prefixMatch().totalBlocks()).isEqualTo(3);

    ApproxPrefixCacheProducer fixed = new ApproxPrefixCacheProducer("f",
        new PrefixCacheConfig(false, 16, 256, 0, 100), new PrefixIndex(100), Runnable::run, null);
    List<Candidate> c2 = candidates(vllm, MetricsSnapshot.NONE);
    fixed.prepareRequestData(completion("m", "w".repeat(128 * 3)), c2);
    assertThat(c2.get(0).prefixMatch().blockSizeTokens()).isEqualTo(16);
    assertThat(c2.get(0).prefixMatch().totalBlocks()).isEqualTo(6);
  }

  @Test
  void maxPrefixTokensOverridesBlockLimit() {
    ApproxPrefixCacheProducer p = new ApproxPrefixCacheProducer("f", new PrefixCacheConfig(false, 16, 256, 32, 100),
        new PrefixIndex(100), Runnable::run, null);
    List<Candidate> c = candidates(MetricsSnapshot.NONE, MetricsSnapshot.NONE);
    p.prepareRequestData(completion("m", "w".repeat(64 * 10)), c);
    assertThat(c.get(0).prefixMatch().totalBlocks()).isEqualTo(2);
  }
}
