package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PodRecyclerTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  private static Pod pod(String name, long ageSeconds) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewStatus().withPhase("Running")
        .withStartTime(NOW.minusSeconds(ageSeconds).toString()).endStatus().build();
  }

  private static Deployment deployment(int desired, int ready, int updated) {
    return new DeploymentBuilder().withNewMetadata().withName("d").withGeneration(3L).endMetadata()
        .withNewSpec().withReplicas(desired).endSpec()
        .withNewStatus().withObservedGeneration(3L).withReplicas(desired).withReadyReplicas(ready)
        .withUpdatedReplicas(updated).endStatus().build();
  }

  @Test
  void theOldestExpiredPodGoesFirstAndOnlyOne() {
    PodRecycler.Decision d = PodRecycler.decide(3600L, List.of(pod("young", 100), pod("old", 7200),
        pod("older", 9000)), deployment(3, 3, 3), NOW);
    assertThat(d.evict()).isEqualTo("older");
    assertThat(d.ageSeconds()).isEqualTo(9000);
    assertThat(d.recheckAfter()).isEqualTo(PodRecycler.UNSETTLED_RECHECK);
  }

  @Test
  void nothingExpiredMeansLookAgainAtTheNextExpiry() {
    PodRecycler.Decision d = PodRecycler.decide(3600L, List.of(pod("a", 600), pod("b", 3000)), deployment(2, 2, 2),
        NOW);
    assertThat(d.evict()).isNull();
    assertThat(d.recheckAfter()).isEqualTo(Duration.ofSeconds(601));
  }

  @Test
  void neverWhileARolloutRunsAReplicaIsMissingOrAPodIsLeaving() {
    List<Pod> expired = List.of(pod("a", 7200), pod("b", 7200));
    assertThat(PodRecycler.decide(3600L, expired, deployment(2, 1, 2), NOW).evict()).as("one not ready").isNull();
    assertThat(PodRecycler.decide(3600L, expired, deployment(2, 2, 1), NOW).evict()).as("rollout").isNull();
    Deployment stale = deployment(2, 2, 2);
    stale.getMetadata().setGeneration(4L);
    assertThat(PodRecycler.decide(3600L, expired, stale, NOW).evict()).as("spec not observed yet").isNull();
    Pod leaving = pod("c", 10);
    leaving.getMetadata().setDeletionTimestamp(NOW.toString());
    PodRecycler.Decision d = PodRecycler.decide(3600L, List.of(pod("a", 7200), pod("b", 7200), leaving),
        deployment(2, 2, 2), NOW);
    assertThat(d.evict()).as("previous eviction still terminating").isNull();
    assertThat(d.recheckAfter()).isEqualTo(PodRecycler.UNSETTLED_RECHECK);
  }

  @Test
  void unsetOrScaledToZeroDoesNothing() {
    assertThat(PodRecycler.decide(null, List.of(pod("a", 99999)), deployment(1, 1, 1), NOW))
        .isEqualTo(PodRecycler.Decision.NONE);
    assertThat(PodRecycler.decide(60L, List.of(), deployment(0, 0, 0), NOW).evict()).isNull();
  }

  @Test
  void refusedEvictionsBackOffAndWarnLessAndLessOften() {
    assertThat(java.util.stream.IntStream.rangeClosed(1, 8).mapToObj(PodRecycler::afterRefusals)
        .map(b -> b.delay().toSeconds() + (b.warn() ? "!" : "")).toList())
        .containsExactly("10!", "20!", "40", "80!", "160", "300", "300", "300!");
    assertThat(PodRecycler.afterRefusals(40).delay()).isEqualTo(java.time.Duration.ofMinutes(5));
    assertThat(PodRecycler.afterRefusals(40).warn()).isFalse();
    assertThat(PodRecycler.afterRefusals(64).warn()).isTrue();
  }
}
