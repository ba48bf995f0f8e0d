package dev.modelplane.router.predict;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.TestEndpoints;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PredictedLatencyScorerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final AtomicLong clock = new AtomicLong(1_000_000_000L);
  private final SplittableRandom random = new SplittableRandom(5);
  private final List<EndpointState> endpoints = List.of(
      TestEndpoints.state("a", MetricsSnapshot.of(0, 0.1, 0)),
      TestEndpoints.state("b", MetricsSnapshot.of(0, 0.1, 0)),
      TestEndpoints.state("c", MetricsSnapshot.of(0, 0.1, 0)));

  private PredictedLatencyScorer scorer() {
    return new PredictedLatencyScorer("p", new LatencyPredictor(LatencyPredictor.Settings.DEFAULT), 128, 1.0, true,
        clock::get);
  }

  private static InferenceRequest request(String id, String prompt, int maxTokens, Map<String, String> headers,
      int priority) {
    ObjectNode body = JSON.createObjectNode().put("model", "m").put("prompt", prompt).put("max_tokens", maxTokens)
        .put("stream", true);
    return new InferenceRequest(id, "m", "m", new LlmRequestBody(LlmRequestBody.Api.COMPLETIONS, body), headers,
        priority, "f", 0);
  }

  private List<Candidate> candidates() {
    List<Candidate> out = new ArrayList<>();
    endpoints.forEach(e -> out.add(new Candidate(e)));
    return out;
  }

  /** Scores, picks the best (ties at random), and plays the response the way the gateway reports it. */
  private Candidate route(PredictedLatencyScorer s, InferenceRequest r, ToDoubleFunction<EndpointState> ttftMs) {
    List<Candidate> cs = s.filter(new CycleState(), r, candidates());
    double[] scores = new double[cs.size()];
    s.score(new CycleState(), r, cs, scores);
    int best = 0;
    int ties = 1;
    for (int i = 1; i < cs.size(); i++) {
      if (scores[i] > scores[best]) {
        best = i;
        ties = 1;
      } else if (scores[i] == scores[best] && random.nextInt(++ties) == 0) {
        best = i;
      }
    }
    Candidate chosen = cs.get(best);
    s.preRequest(r, new SchedulingResult("default", Map.of("default", new ProfileRunResult(List.of(chosen)))));
    long sent = clock.get();
    long first = sent + (long) (ttftMs.applyAsDouble(chosen.state()) * 1e6);
    long last = first + 19 * 10_000_000L;
    s.responseReceived(r, null, 200, chosen.state());
    s.responseComplete(r, chosen.state(), new ResponseOutcome(200, true, 4000, first, last, 20));
    clock.set(last + 1_000_000);
    return chosen;
  }

  @Test
  void routesAwayFromAnEndpointThatGotSlowAndRelearnsAfterARestart() {
    Map<String, Double> speed = new HashMap<>(Map.of("a", 1.0, "b", 1.0, "c", 1.0));
    ToDoubleFunction<EndpointState> latency = e -> 50 * speed.get(e.id().name());
    PredictedLatencyScorer s = scorer();
    Map<String, Integer> before = new HashMap<>();
    for (int i = 0; i < 60; i++) {
      before.merge(route(s, request("r" + i, "hello " + i, 20, Map.of(), 0), latency).endpoint().id().name(), 1,
          Integer::sum);
    }
    // One request at a time leaves every endpoint idle, so any is as good: slow down the one it prefers.
    String favourite = before.entrySet().stream().max(Map.Entry.comparingByValue()).orElseThrow().getKey();
    speed.put(favourite, 4.0);
    Map<String, Integer> after = new HashMap<>();
    for (int i = 0; i < 60; i++) {
      Candidate c = route(s, request("s" + i, "hello " + i, 20, Map.of(), 0), latency);
      if (i >= 10) {
        after.merge(c.endpoint().id().name(), 1, Integer::sum);
      }
    }
    assertThat(after).as("requests 10..60 after " + favourite + " became 4x slower").doesNotContainKey(favourite);
    // A restarted router learns from scratch; within 30 requests it has found the slow endpoint again.
    PredictedLatencyScorer restarted = scorer();
    Map<String, Integer> relearned = new HashMap<>();
    for (int i = 0; i < 130; i++) {
      Candidate c = route(restarted, request("t" + i, "hello " + i, 20, Map.of(), 0), latency);
      if (i >= 30) {
        relearned.merge(c.endpoint().id().name(), 1, Integer::sum);
      }
    }
    assertThat(relearned).as("requests 30..130 after a restart").doesNotContainKey(favourite);
  }

  @Test
  void prefersTheEndpointHoldingThePromptUnlessItsBacklogIsWorse() {
    PredictedLatencyScorer s = scorer();
    InferenceRequest r = request("r", "x".repeat(16_000), 10, Map.of(), 0);
    List<Candidate> cs = candidates();
    cs.get(1).prefixMatch(new PrefixMatch(250, 250, 16));
    cs.get(0).prefixMatch(PrefixMatch.NONE);
    cs.get(2).prefixMatch(PrefixMatch.NONE);
    double[] scores = new double[3];
    s.score(new CycleState(), r, cs, scores);
    assertThat(scores[1]).isEqualTo(1.0);
    assertThat(scores[0]).isLessThan(1.0);
    // Another 40k tokens of prefill already queued on b outweigh the 4k it would save.
    s.predictor().prefillStarted(endpoints.get(1).id(), 40_000);
    List<Candidate> again = candidates();
    again.get(1).prefixMatch(new PrefixMatch(250, 250, 16));
    s.score(new CycleState(), r, again, scores);
    assertThat(scores[1]).isLessThan(scores[0]);
  }

  @Test
  void theSlowdownItInflictsOnRunningRequestsCountsAgainstABusyEndpoint() {
    PredictedLatencyScorer s = scorer();
    // Two idle-looking candidates, one with 20 requests of this router running; long answers.
    for (int i = 0; i < 20; i++) {
      endpoints.get(1).requestStarted();
    }
    InferenceRequest r = request("r", "hello", 500, Map.of(), 0);
    List<Candidate> cs = candidates();
    double[] scores = new double[3];
    s.score(new CycleState(), r, cs, scores);
    PredictedLatencyScorer.Estimate busy = s.estimate(cs.get(1), r);
    PredictedLatencyScorer.Estimate idle = s.estimate(cs.get(0), r);
    double ownOnly = busy.prediction().ttftMs() + busy.prediction().tpotMs() * 500;
    assertThat(busy.costMs()).as("cost includes the others' slowdown").isGreaterThan(ownOnly);
    assertThat(busy.costMs() - ownOnly).isCloseTo(20 * s.predictor().tpotPerRunningRequest(busy.endpoint()) * 250,
        org.assertj.core.api.Assertions.within(1e-6));
    assertThat(idle.costMs()).isCloseTo(idle.prediction().ttftMs() + idle.prediction().tpotMs() * 500,
        org.assertj.core.api.Assertions.within(1e-6));
    assertThat(scores[1]).isLessThan(scores[0]);
  }

  @Test
  void sloFilterKeepsWhatMeetsItAndShedsOnlySheddableRequests() {
    PredictedLatencyScorer s = scorer();
    ToDoubleFunction<EndpointState> latency = e -> e.id().name().equals("a") ? 40 : 400;
    for (int i = 0; i < 200; i++) {
      route(s, request("r" + i, "hello", 20, Map.of(), 0), e -> latency.applyAsDouble(e));
    }
    // Teach every endpoint its speed by routing a round to each, with the others excluded.
    for (EndpointState e : endpoints) {
      for (int i = 0; i < 30; i++) {
        InferenceRequest r = request("w" + e.id().name() + i, "hello", 20, Map.of(), 0);
        Candidate c = new Candidate(e);
        s.score(new CycleState(), r, List.of(c), new double[1]);
        s.preRequest(r, new SchedulingResult("d", Map.of("d", new ProfileRunResult(List.of(c)))));
        long first = clock.get() + (long) (latency.applyAsDouble(e) * 1e6);
        s.responseComplete(r, e, new ResponseOutcome(200, true, 100, first, first + 190_000_000L, 20));
        clock.set(first + 200_000_000L);
      }
    }
    List<Candidate> met = s.filter(new CycleState(),
        request("q", "hello", 20, Map.of("x-slo-ttft-ms", "100"), 0), candidates());
    assertThat(met).extracting(c -> c.endpoint().id().name()).containsExactly("a");
    Map<String, String> impossible = Map.of("x-slo-ttft-ms", "5");
    assertThat(s.filter(new CycleState(), request("q", "hello", 20, impossible, -1), candidates()))
        .as("sheddable").isEmpty();
    assertThat(s.filter(new CycleState(), request("q", "hello", 20, impossible, 0), candidates()))
        .as("standard: best effort").hasSize(3);
    assertThat(s.filter(new CycleState(), request("q", "hello", 20, Map.of("x-slo-tpot-ms", "0.001"), -1),
        candidates())).as("TPOT SLO alone").isEmpty();
    assertThat(s.filter(new CycleState(), request("q", "hello", 20, Map.of("x-slo-ttft-ms", "soon"), -1),
        candidates())).as("a header that is not a positive number is ignored").hasSize(3);
    PredictedLatencyScorer keep = new PredictedLatencyScorer("k", s.predictor(), 128, 1.0, false, clock::get);
    assertThat(keep.filter(new CycleState(), request("q", "hello", 20, impossible, -1), candidates()))
        .as("shedSheddable: false").hasSize(3);
  }

  @Test
  void theBacklogClosesOnceAndOnlyStreamedSuccessesTeach() {
    PredictedLatencyScorer s = scorer();
    InferenceRequest r = request("r", "y".repeat(4000), 10, Map.of(), 0);
    Candidate c = new Candidate(endpoints.get(0));
    s.score(new CycleState(), r, List.of(c), new double[1]);
    s.preRequest(r, new SchedulingResult("d", Map.of("d", new ProfileRunResult(List.of(c)))));
    assertThat(s.predictor().pendingPrefillTokens(c.endpoint().id())).isEqualTo(1000);
    s.responseReceived(r, null, 200, c.state());
    s.responseReceived(r, null, 200, c.state());
    assertThat(s.predictor().pendingPrefillTokens(c.endpoint().id())).isZero();
    s.responseComplete(r, c.state(), new ResponseOutcome(200, true, 100, clock.get() + 1, clock.get() + 2, 0));
    s.responseComplete(r, c.state(), new ResponseOutcome(500, true, 100, clock.get() + 1, clock.get() + 2, 5));
    s.responseComplete(r, endpoints.get(1), new ResponseOutcome(200, true, 100, clock.get() + 1, clock.get() + 2, 5));
    assertThat(s.predictor().observations()).as("plain body, error, served elsewhere").isZero();
    s.responseComplete(r, c.state(), new ResponseOutcome(200, true, 100, clock.get() + 1, clock.get() + 2, 5));
    assertThat(s.predictor().observations()).isEqualTo(1);
    assertThat(s.predictor().pendingPrefillTokens(c.endpoint().id())).isZero();
  }

  @Test
  void invalidParametersAreRefused() {
    LatencyPredictor p = new LatencyPredictor(LatencyPredictor.Settings.DEFAULT);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PredictedLatencyScorer("x", p, 0, 1, true,
        clock::get)).hasMessage("defaultOutputTokens must be >= 1, got 0");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> new PredictedLatencyScorer("x", p, 1, -1, true,
        clock::get)).hasMessage("tpotWeight must be a number >= 0, got -1.0");
  }
}
