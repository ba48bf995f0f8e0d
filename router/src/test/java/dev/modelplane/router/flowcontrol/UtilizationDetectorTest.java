package dev.modelplane.router.flowcontrol;

import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.CycleState;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

import static dev.modelplane.router.TestEndpoints.completion;
import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class UtilizationDetectorTest {
  private final AtomicLong now = new AtomicLong(1_000_000_000L);
  private final UtilizationDetector detector =
      new UtilizationDetector("u", UtilizationDetector.Config.DEFAULT, now::get);

  private EndpointState fresh(String name, int q, double kv) {
    return state(name, MetricsSnapshot.of(q, kv, now.get()));
  }

  @Test
  void saturationIsTheMeanOfPerEndpointMaxRatios() {
    // a: max(2/5, 0.4/0.8) = 0.5; b: max(10/5, 0) = 2.0 → mean 1.25
    double s = detector.saturation(List.of(fresh("a", 2, 0.4), fresh("b", 10, 0)));
    assertThat(s).isCloseTo(1.25, within(1e-12));
    assertThat(detector.saturation(List.of())).isEqualTo(1.0);
  }

  @Test
  void requestsSentOrChosenSinceTheLastScrapeCountAsQueued() {
    EndpointState a = fresh("a", 1, 0);
    EndpointState b = fresh("b", 1, 0);
    assertThat(detector.saturation(List.of(a, b))).isCloseTo(0.2, within(1e-12));
    for (int i = 0; i < 4; i++) {
      a.picked(); // chosen by the scheduler, not sent yet
    }
    b.requestStarted(); // sent
    // a: (1 + 4) / 5 = 1.0; b: (1 + 1) / 5 = 0.4
    assertThat(detector.saturation(List.of(a, b))).isCloseTo(0.7, within(1e-12));
    a.updateMetrics(MetricsSnapshot.of(5, 0, now.get()));
    b.updateMetrics(MetricsSnapshot.of(2, 0, now.get()));
    assertThat(detector.saturation(List.of(a, b))).isCloseTo(0.7, within(1e-12)); // now in the scraped queues
    b.requestFinished();
    assertThat(b.unscrapedRequests()).isZero();
  }

  @Test
  void staleMetricsCountAsSaturatedAndAServerThatNeverReportedAsIdle() {
    EndpointState a = fresh("a", 0, 0);
    now.addAndGet(Duration.ofMillis(201).toNanos());
    assertThat(detector.saturation(List.of(a))).isEqualTo(1.0);
    // Nothing is known of a server without metrics: it must not hold a pool's requests in flow control for ever.
    EndpointState never = state("never", MetricsSnapshot.NONE);
    never.picked();
    assertThat(detector.saturation(List.of(never))).isZero();
    assertThat(detector.saturation(List.of(a, never))).isEqualTo(0.5);
  }

  @Test
  void filterKeepsHealthyEndpointsOrAllWhenNoneQualifies() {
    List<Candidate> c = List.of(new Candidate(fresh("ok", 4, 0.79)), new Candidate(fresh("queue", 5, 0)),
        new Candidate(fresh("kv", 0, 0.8)));
    assertThat(detector.filter(new CycleState(), completion("m", "x"), c)).containsExactly(c.get(0));
    List<Candidate> busy = List.of(new Candidate(fresh("q", 50, 0)));
    assertThat(detector.filter(new CycleState(), completion("m", "x"), busy)).isEqualTo(busy);
    UtilizationDetector roomy = new UtilizationDetector("u",
        new UtilizationDetector.Config(5, 0.8, Duration.ofMillis(200), 0.2), now::get);
    assertThat(roomy.filter(new CycleState(), completion("m", "x"), c)).hasSize(3);
  }
}
