package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.common.Clients;
import dev.modelplane.operator.common.EventRecorder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code maxPodLifetimeSeconds}: evicts at most one expired pod per look through the Eviction API (so
 * PodDisruptionBudgets apply), waits for an idle server under {@code rolloutPolicy.waitForIdle}, and backs off when
 * evictions are refused ({@link PodRecycler} decides; this class acts and remembers refusals).
 */
final class ExpiredPodEvictor {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiredPodEvictor.class);

  private final EventRecorder events;
  private final Clock clock;
  private final IdleProbe idleProbe;
  private final Map<ResourceID, Refusals> refusals = new ConcurrentHashMap<>();

  ExpiredPodEvictor(EventRecorder events, Clock clock, IdleProbe idleProbe) {
    this.events = events;
    this.clock = clock;
    this.idleProbe = idleProbe;
  }

  /** Refused evictions in a row for one service's expired pod, and when the next attempt is due. */
  private record Refusals(String pod, int count, Instant notBefore) {
  }

  /** Evicts at most one expired pod; returns when to look again, or null. */
  Duration evictExpired(InferenceService isvc, ServingPlan plan, Deployment live, Collection<Pod> pods,
      KubernetesClient client) {
    if (plan == null || isvc.getSpec().maxPodLifetimeSeconds() == null) {
      return null;
    }
    PodRecycler.Decision d = PodRecycler.decide(isvc.getSpec().maxPodLifetimeSeconds(), pods, live, clock.instant());
    if (d.evict() == null) {
      return d.recheckAfter();
    }
    if (!idleForRecycling(isvc, plan, d, pods)) {
      return RolloutGate.RECHECK;
    }
    ResourceID id = ResourceID.fromResource(isvc);
    Refusals refused = refusals.get(id);
    Instant now = clock.instant();
    if (refused != null && refused.pod().equals(d.evict()) && now.isBefore(refused.notBefore())) {
      return Duration.between(now, refused.notBefore());
    }
    if (evict(isvc, d.evict(), client)) {
      refusals.remove(id);
      events.normal(isvc, "PodRecycled", "Evicted pod " + d.evict() + " after " + d.ageSeconds()
          + "s (maxPodLifetimeSeconds=" + isvc.getSpec().maxPodLifetimeSeconds() + ")");
      return d.recheckAfter();
    }
    int count = refused != null && refused.pod().equals(d.evict()) ? refused.count() + 1 : 1;
    PodRecycler.Backoff backoff = PodRecycler.afterRefusals(count);
    refusals.put(id, new Refusals(d.evict(), count, now.plus(backoff.delay())));
    LOG.info("recycle refused isvc={}/{} pod={} refusals={} retry_s={}", isvc.getMetadata().getNamespace(),
        isvc.getMetadata().getName(), d.evict(), count, backoff.delay().toSeconds());
    if (backoff.warn()) {
      events.warning(isvc, "RecycleBlocked", "Could not evict pod " + d.evict() + " (a PodDisruptionBudget or the "
          + "API refused" + (count > 1 ? ", " + count + " times in a row" : "") + "); retrying in "
          + backoff.delay().toSeconds() + "s");
    }
    return backoff.delay();
  }

  /** One eviction without client retries: a refusal (429) is an answer, not a fault to retry for 20 s. */
  private static boolean evict(InferenceService isvc, String pod, KubernetesClient client) {
    String ns = isvc.getMetadata().getNamespace();
    try {
      return Clients.withoutRetries(client).pods().inNamespace(ns).withName(pod).evict();
    } catch (KubernetesClientException e) {
      LOG.warn("recycle failed isvc={}/{} pod={} error=\"{}\"", ns, isvc.getMetadata().getName(), pod,
          e.getMessage());
      return false;
    }
  }

  /**
   * With {@code rolloutPolicy.waitForIdle}, an expired pod is evicted only once its server is idle — or when
   * {@code maxPodLifetimeIdleTimeoutSeconds} have passed since it expired (0: at once; unset: never without idle).
   */
  private boolean idleForRecycling(InferenceService isvc, ServingPlan plan, PodRecycler.Decision d,
      Collection<Pod> pods) {
    IdleProbe.Check check = IdleProbe.checkFor(plan.renderer().runtimeName(), isvc.getMetadata().getAnnotations());
    if (!RolloutGate.enabled(isvc) || check == null) {
      return true;
    }
    Long limit = isvc.getSpec().maxPodLifetimeIdleTimeoutSeconds();
    long overdue = d.ageSeconds() - isvc.getSpec().maxPodLifetimeSeconds();
    if (limit != null && overdue >= limit) {
      return true;
    }
    Pod pod = pods.stream().filter(p -> d.evict().equals(p.getMetadata().getName())).findFirst().orElse(null);
    String ip = pod == null || pod.getStatus() == null ? null : pod.getStatus().getPodIP();
    if (ip == null || idleProbe.probe(ip, plan.containerPort(), check) == IdleProbe.State.IDLE) {
      return true;
    }
    LOG.info("recycle waits isvc={}/{} pod={} reason=busy overdue_s={}", isvc.getMetadata().getNamespace(),
        isvc.getMetadata().getName(), d.evict(), overdue);
    return false;
  }

  /** Forgets a deleted service. */
  void forget(ResourceID id) {
    refusals.remove(id);
  }
}
