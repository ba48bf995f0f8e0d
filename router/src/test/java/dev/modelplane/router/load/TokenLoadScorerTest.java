package dev.modelplane.router.load;

import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PrefixMatch;
import dev.modelplane.router.scheduling.ScorerCategory;
import java.util.List;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.load.InFlightLoadProducerTest.candidate;
import static dev.modelplane.router.load.InFlightLoadProducerTest.picked;
import static dev.modelplane.router.load.InFlightLoadProducerTest.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class TokenLoadScorerTest {
  private final InFlightLoadProducer producer = new InFlightLoadProducer("p", false, 1.5, -1);

  private double[] score(TokenLoadScorer scorer, InferenceRequest r, List<Candidate> candidates) {
    double[] out = new double[candidates.size()];
    scorer.score(new CycleState(), r, candidates, out);
    return out;
  }

  @Test
  void scoresOneMinusInFlightPlusThisRequestsTokensOverTheThreshold() {
    TokenLoadScorer scorer = new TokenLoadScorer("t", producer, 1000);
    producer.preRequest(request("busy", 4 * 600, null), picked(candidate("b", null)));
    producer.preRequest(request("full", 4 * 5000, null), picked(candidate("c", null)));
    InferenceRequest r = request("r", 4 * 100, null); // 100 tokens, 6 blocks of 16 indexed
    List<Candidate> c = List.of(candidate("a", null), candidate("b", null), candidate("c", null),
        candidate("d", new PrefixMatch(6, 6, 16)));
    double[] s = score(scorer, r, c);
    assertThat(s[0]).isCloseTo(1 - 100 / 1000.0, within(1e-12));
    assertThat(s[1]).isCloseTo(1 - 700 / 1000.0, within(1e-12));
    assertThat(s[2]).as("at or past the threshold").isZero();
    assertThat(s[3]).as("only the 4-token tail is uncached").isCloseTo(1 - 4 / 1000.0, within(1e-12));
    assertThat(scorer.category()).isEqualTo(ScorerCategory.DISTRIBUTION);
  }

  @Test
  void anIdleEndpointWithNothingToComputeScoresOne() {
    TokenLoadScorer scorer = new TokenLoadScorer("t", producer, 1000);
    assertThat(score(scorer, request("r", 0, null), List.of(candidate("a", null)))).containsExactly(1.0);
  }

  @Test
  void theDefaultThresholdIsFourMebiTokensAndNonPositiveTakesIt() {
    producer.preRequest(request("busy", 4 * 2_097_152, null), picked(candidate("b", null)));
    InferenceRequest r = request("r", 0, null);
    for (long threshold : new long[] {TokenLoadScorer.DEFAULT_QUEUE_THRESHOLD_TOKENS, 0, -5}) {
      assertThat(score(new TokenLoadScorer("t", producer, threshold), r, List.of(candidate("b", null))))
          .containsExactly(0.5);
    }
  }

  @Test
  void aFinishedRequestNoLongerWeighs() {
    TokenLoadScorer scorer = new TokenLoadScorer("t", producer, 1000);
    InferenceRequest busy = request("busy", 4 * 500, null);
    Candidate b = candidate("b", null);
    producer.preRequest(busy, picked(b));
    InferenceRequest r = request("r", 0, null);
    assertThat(score(scorer, r, List.of(candidate("b", null)))).containsExactly(0.5);
    producer.responseReceived(busy, picked(b), 200, b.state());
    assertThat(score(scorer, r, List.of(candidate("b", null)))).containsExactly(1.0);
  }
}
