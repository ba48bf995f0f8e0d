package dev.modelplane.operator.llmkube.isvc;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes the ReplicaSet controller while the API server refuses a Deployment's pods (ReplicaFailure: a missing
 * PriorityClass or RuntimeClass, quota, admission). That controller retries a failing ReplicaSet with exponential
 * backoff (up to minutes), so a prerequisite created later would go unnoticed for a long time. While the failure
 * lasts, every {@link #INTERVAL} the newest ReplicaSet gets an annotation; the update event makes the controller sync
 * it at once, outside its backoff.
 */
final class ReplicaSetNudge {
  /** The annotation whose change wakes the ReplicaSet controller. */
  static final String ANNOTATION = "modelplane.dev/nudged-at";
  /** How often a failing ReplicaSet is woken (and the service looked at again). */
  static final Duration INTERVAL = Duration.ofSeconds(10);
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaSetNudge.class);

  private final Clock clock;

  ReplicaSetNudge(Clock clock) {
    this.clock = clock;
  }

  /** Nudges {@code live}'s newest ReplicaSet when its pods are refused; returns when to look again, or null. */
  Duration nudge(Deployment live, KubernetesClient client) {
    if (live == null || replicaFailure(live) == null) {
      return null;
    }
    try {
      List<ReplicaSet> owned = client.apps().replicaSets().inNamespace(live.getMetadata().getNamespace())
          .withLabels(live.getSpec().getSelector().getMatchLabels()).list().getItems().stream()
          .filter(rs -> ownedBy(rs, live)).toList();
      ReplicaSet newest = owned.stream().max(Comparator.comparing(ReplicaSetNudge::revision)).orElse(null);
      Instant now = clock.instant();
      if (newest != null && due(newest, now)) {
        client.apps().replicaSets().inNamespace(newest.getMetadata().getNamespace())
            .withName(newest.getMetadata().getName()).edit(rs -> {
              rs.getMetadata().getAnnotations().put(ANNOTATION, now.toString());
              return rs;
            });
        LOG.atInfo().addKeyValue("event", "replicaset_nudged").addKeyValue("replicaset",
            newest.getMetadata().getNamespace() + "/" + newest.getMetadata().getName())
            .addKeyValue("failure", replicaFailure(live)).log("pods refused; woke the ReplicaSet controller");
      }
    } catch (KubernetesClientException e) {
      LOG.atDebug().addKeyValue("event", "replicaset_nudge_failed").addKeyValue("code", e.getCode())
          .log("could not nudge; tried again later");
    }
    return INTERVAL;
  }

  /** The Deployment's ReplicaFailure message, or null. */
  static String replicaFailure(Deployment d) {
    return d.getStatus() == null || d.getStatus().getConditions() == null ? null
        : d.getStatus().getConditions().stream()
            .filter(c -> "ReplicaFailure".equals(c.getType()) && "True".equals(c.getStatus()))
            .map(c -> c.getMessage() == null ? String.valueOf(c.getReason()) : c.getMessage()).findFirst()
            .orElse(null);
  }

  /** Whether the last nudge is at least {@link #INTERVAL} old (or there was none). */
  boolean due(ReplicaSet rs, Instant now) {
    Map<String, String> annotations = rs.getMetadata().getAnnotations();
    String last = annotations == null ? null : annotations.get(ANNOTATION);
    if (last == null) {
      return true;
    }
    try {
      return !Instant.parse(last).plus(INTERVAL).isAfter(now);
    } catch (DateTimeParseException e) {
      return true;
    }
  }

  private static boolean ownedBy(ReplicaSet rs, Deployment d) {
    List<OwnerReference> refs = rs.getMetadata().getOwnerReferences();
    return refs != null && refs.stream().anyMatch(r -> d.getMetadata().getUid().equals(r.getUid()));
  }

  private static long revision(ReplicaSet rs) {
    Map<String, String> a = rs.getMetadata().getAnnotations();
    try {
      return a == null ? 0 : Long.parseLong(a.getOrDefault("deployment.kubernetes.io/revision", "0"));
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
