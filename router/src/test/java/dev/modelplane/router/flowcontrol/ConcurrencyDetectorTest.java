package dev.modelplane.router.flowcontrol;

import static dev.modelplane.router.TestEndpoints.completion;
import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.plugin.PluginParameters;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConcurrencyDetectorTest {
  private final ConcurrencyDetector detector = new ConcurrencyDetector("c", new ConcurrencyDetector.Config(4, 0));

  private static EndpointState running(String name, int requests) {
    EndpointState s = state(name, MetricsSnapshot.of(0, 0, 1));
    for (int i = 0; i < requests; i++) {
      s.requestStarted();
    }
    return s;
  }

  private static PluginParameters params(String json) throws Exception {
    return PluginParameters.of(new ObjectMapper().readTree(json));
  }

  @Test
  void saturationIsRequestsInFlightOverThePoolsCapacity() {
    // 3 + 1 of 2 × 4
    assertThat(detector.saturation(List.of(running("a", 3), running("b", 1)))).isCloseTo(0.5, within(1e-12));
    assertThat(detector.saturation(List.of(running("a", 4), running("b", 6)))).isCloseTo(1.25, within(1e-12));
    assertThat(detector.saturation(List.of())).isEqualTo(1.0);
  }

  @Test
  void aChoiceCountsAtOnceAndAChoiceThatNeverStartsIsForgottenAfterAScrapeInterval() {
    EndpointState a = running("a", 0);
    a.picked();
    a.picked();
    assertThat(a.load()).isEqualTo(2);
    a.requestStarted(); // one of them was sent: still two
    assertThat(a.load()).isEqualTo(2);
    a.updateMetrics(MetricsSnapshot.of(0, 0, 2)); // the other was chosen during this interval: kept
    assertThat(a.load()).isEqualTo(2);
    a.updateMetrics(MetricsSnapshot.of(0, 0, 3)); // still not sent an interval later: forgotten
    assertThat(a.load()).isEqualTo(1);
    a.requestFinished();
    assertThat(a.load()).isZero();
  }

  @Test
  void filterKeepsEndpointsBelowTheirLimitWithHeadroomAndMayKeepNone() {
    List<Candidate> c = List.of(new Candidate(running("free", 3)), new Candidate(running("full", 4)),
        new Candidate(running("over", 5)));
    assertThat(detector.filter(new CycleState(), completion("m", "x"), c)).containsExactly(c.get(0));
    ConcurrencyDetector roomy = new ConcurrencyDetector("c", new ConcurrencyDetector.Config(4, 0.5));
    assertThat(roomy.filter(new CycleState(), completion("m", "x"), c)).containsExactly(c.get(0), c.get(1),
        c.get(2));
    List<Candidate> busy = List.of(new Candidate(running("full", 4)));
    assertThat(detector.filter(new CycleState(), completion("m", "x"), busy)).isEmpty();
  }

  @Test
  void readsGiesParametersAndRefusesTokenModes() throws Exception {
    assertThat(ConcurrencyDetector.Config.from(PluginParameters.NONE)).isEqualTo(new ConcurrencyDetector.Config(100,
        0));
    assertThat(ConcurrencyDetector.Config.from(params("{\"concurrencyMode\":\"requests\",\"maxConcurrency\":4,"
        + "\"headroom\":0.25}"))).isEqualTo(new ConcurrencyDetector.Config(4, 0.25));
    assertThatThrownBy(() -> ConcurrencyDetector.Config.from(params("{\"concurrencyMode\":\"tokens\"}")))
        .hasMessage("concurrencyMode 'tokens' is not supported (supported: requests)");
    assertThatThrownBy(() -> ConcurrencyDetector.Config.from(params("{\"maxConcurrency\":0}")))
        .hasMessage("maxConcurrency must be greater than 0, got 0");
    assertThatThrownBy(() -> ConcurrencyDetector.Config.from(params("{\"headroom\":-0.1}")))
        .hasMessage("headroom must be a non-negative value, got -0.1");
    assertThatThrownBy(() -> ConcurrencyDetector.Config.from(params("{\"maxTokenConcurrency\":0}")))
        .hasMessage("maxTokenConcurrency must be greater than 0, got 0.0");
  }
}
