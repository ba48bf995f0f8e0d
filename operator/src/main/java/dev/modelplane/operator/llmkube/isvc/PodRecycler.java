package dev.modelplane.operator.llmkube.isvc;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * {@code maxPodLifetimeSeconds}: best-effort recycling of inference pods. At most one pod is recycled at a time, and
 * only while the Deployment is settled (no rollout in progress, every desired replica ready, no pod terminating), so
 * recycling never stacks on a rollout or on itself. The oldest expired pod goes first; age is measured from the pod's
 * {@code status.startTime}. The caller evicts through the Eviction API, so PodDisruptionBudgets apply.
 */
public final class PodRecycler {
  /** How long to wait before looking again while the Deployment is not settled. */
  static final Duration UNSETTLED_RECHECK = Duration.ofSeconds(10);

  /**
   * What to do now.
   *
   * @param evict the pod to evict now, or null
   * @param ageSeconds that pod's age
   * @param recheckAfter when to look again (the next expiry, or a short wait while unsettled); null when never
   */
  public record Decision(String evict, long ageSeconds, Duration recheckAfter) {
    static final Decision NONE = new Decision(null, 0, null);
  }

  /** First wait after a refused eviction; it doubles with each refusal in a row. */
  static final Duration FIRST_RETRY = Duration.ofSeconds(10);
  /** Longest wait between eviction attempts. */
  static final Duration MAX_RETRY = Duration.ofMinutes(5);
  private static final dev.modelplane.common.time.Backoff RETRY =
      new dev.modelplane.common.time.Backoff(FIRST_RETRY, MAX_RETRY);

  /**
   * What to do after an eviction was refused (a PodDisruptionBudget, the API).
   *
   * @param delay how long until the next attempt
   * @param warn whether to raise a {@code RecycleBlocked} Warning for this refusal
   */
  public record Backoff(Duration delay, boolean warn) {
  }

  private PodRecycler() {
  }

  /**
   * After {@code refusals} refusals in a row: wait 10 s, 20 s, 40 s, … at most 5 minutes, and warn on the 1st, 2nd,
   * 4th, 8th, … refusal, so a budget that keeps refusing is reported without an Event every few seconds.
   */
  public static Backoff afterRefusals(int refusals) {
    int n = Math.max(1, refusals);
    return new Backoff(RETRY.delay(n), Integer.bitCount(n) == 1);
  }

  public static Decision decide(Long maxLifetimeSeconds, Collection<Pod> pods, Deployment deployment, Instant now) {
    if (maxLifetimeSeconds == null || deployment == null) {
      return Decision.NONE;
    }
    Duration max = Duration.ofSeconds(maxLifetimeSeconds);
    List<Pod> live = pods.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null)
        .filter(p -> p.getStatus() != null && "Running".equals(p.getStatus().getPhase())
            && p.getStatus().getStartTime() != null)
        .toList();
    if (!settled(deployment) || pods.stream().anyMatch(p -> p.getMetadata().getDeletionTimestamp() != null)) {
      return new Decision(null, 0, UNSETTLED_RECHECK);
    }
    Pod oldest = live.stream().min(Comparator.comparing(PodRecycler::started)).orElse(null);
    if (oldest == null) {
      return new Decision(null, 0, UNSETTLED_RECHECK);
    }
    Duration age = Duration.between(started(oldest), now);
    if (age.compareTo(max) >= 0) {
      return new Decision(oldest.getMetadata().getName(), age.toSeconds(), UNSETTLED_RECHECK);
    }
    return new Decision(null, 0, max.minus(age).plusSeconds(1));
  }

  /** No rollout in progress and every desired replica ready. */
  static boolean settled(Deployment d) {
    DeploymentStatus s = d.getStatus();
    if (s == null || d.getSpec() == null) {
      return false;
    }
    int desired = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
    if (desired == 0) {
      return false;
    }
    return Objects.equals(s.getObservedGeneration(), d.getMetadata().getGeneration())
        && value(s.getUpdatedReplicas()) == desired && value(s.getReadyReplicas()) == desired
        && value(s.getReplicas()) == desired;
  }

  private static int value(Integer i) {
    return i == null ? 0 : i;
  }

  private static Instant started(Pod p) {
    return Instant.parse(p.getStatus().getStartTime());
  }
}
