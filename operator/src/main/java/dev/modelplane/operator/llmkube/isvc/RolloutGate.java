package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.RolloutPolicy;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * {@code rolloutPolicy.waitForIdle}: whether a pending pod-template change may reach the Deployment now. A change is
 * pending when the desired template's hash (annotation {@value #TEMPLATE_HASH} on the Deployment) differs from the
 * live one's. It waits while any Ready replica's server is busy or cannot be asked ({@link IdleProbe}), for at most
 * {@code idleTimeoutSeconds} (300 by default) from the moment the wait began; {@code force}, a runtime without an
 * idle check, and no serving replica let it through at once. Everything else about the Deployment (replicas) is
 * applied while the template waits.
 */
public final class RolloutGate {
  /** Deployment annotation: hash of the pod template the operator last applied (only with waitForIdle). */
  public static final String TEMPLATE_HASH = "inference.llmkube.dev/template-hash";
  static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(300);
  static final Duration RECHECK = Duration.ofSeconds(5);

  private RolloutGate() {
  }

  /**
   * The outcome, reported as the {@code RolloutDeferred} condition.
   *
   * @param defer whether the template change is held back
   * @param reason CamelCase reason
   * @param message what was found
   * @param recheck when to look again while deferred, else null
   */
  public record Decision(boolean defer, String reason, String message, Duration recheck) {
  }

  /** Whether the service asks to wait for idle servers. */
  public static boolean enabled(InferenceService isvc) {
    RolloutPolicy policy = isvc.getSpec().rolloutPolicy();
    return policy != null && Boolean.TRUE.equals(policy.waitForIdle());
  }

  /** Sixteen hex digits of the SHA-256 of the template's JSON. */
  public static String templateHash(PodTemplateSpec template) {
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256")
          .digest(Serialization.asJson(template).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }

  /**
   * Decides; null when the service does not wait for idle (no condition is reported then).
   *
   * @param runtime the runtime name ({@code llamacpp}, {@code vllm}, …)
   * @param desired the Deployment the operator would apply
   * @param live the Deployment in the cluster, or null
   * @param pods the service's pods
   * @param port the server's container port
   * @param deferredSince when the current wait began (the condition's transition time), or null
   * @param probe asks one pod's server
   */
  public static Decision decide(InferenceService isvc, String runtime, Deployment desired, Deployment live,
      List<Pod> pods, int port, Instant deferredSince, Instant now,
      Function<ProbeTarget, IdleProbe.State> probe) {
    if (!enabled(isvc)) {
      return null;
    }
    RolloutPolicy policy = isvc.getSpec().rolloutPolicy();
    if (live == null || Objects.equals(hash(live), hash(desired)) || hash(live) == null) {
      return new Decision(false, "UpToDate", "The Deployment has the current pod template", null);
    }
    if (Boolean.TRUE.equals(policy.force())) {
      return new Decision(false, "Forced", "rolloutPolicy.force is set: rolled out without waiting for idle", null);
    }
    IdleProbe.Check check = IdleProbe.checkFor(runtime, isvc.getMetadata().getAnnotations());
    if (check == null) {
      return new Decision(false, "IdleCheckUnsupported", "The " + runtime + " runtime has no idle check"
          + ("generic".equals(runtime) ? " (set the annotation " + IdleProbe.IDLE_ENDPOINT + ")" : "")
          + ": rolled out at once", null);
    }
    List<String> busy = new ArrayList<>();
    int serving = 0;
    for (Pod pod : pods) {
      String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
      if (pod.getMetadata().getDeletionTimestamp() != null || !StartupProtection.ready(pod) || ip == null) {
        continue;
      }
      serving++;
      IdleProbe.State state = probe.apply(new ProbeTarget(pod.getMetadata().getName(), ip, port, check));
      if (state != IdleProbe.State.IDLE) {
        busy.add(pod.getMetadata().getName() + (state == IdleProbe.State.UNREACHABLE ? " (no answer)" : ""));
      }
    }
    if (busy.isEmpty()) {
      return new Decision(false, "Idle", serving == 0 ? "No replica was serving: rolled out"
          : "All " + serving + " serving replica(s) were idle: rolled out", null);
    }
    Duration timeout = policy.idleTimeoutSeconds() == null || policy.idleTimeoutSeconds() == 0
        ? DEFAULT_IDLE_TIMEOUT : Duration.ofSeconds(policy.idleTimeoutSeconds());
    Instant since = deferredSince == null ? now : deferredSince;
    Duration left = timeout.minus(Duration.between(since, now));
    if (left.isZero() || left.isNegative()) {
      return new Decision(false, "IdleTimeout", busy.size() + " of " + serving + " replica(s) were still busy after "
          + timeout.toSeconds() + "s (" + String.join(", ", busy) + "): rolled out anyway", null);
    }
    return new Decision(true, "WaitingForIdle", "The new pod template waits until " + busy.size() + " of " + serving
        + " replica(s) are idle (" + String.join(", ", busy) + "); at most " + Math.max(1, left.toSeconds())
        + "s more", left.compareTo(RECHECK) < 0 ? left : RECHECK);
  }

  /**
   * One server to ask.
   *
   * @param pod the pod's name
   * @param ip the pod's IP
   * @param port the server's port
   * @param check how to ask it
   */
  public record ProbeTarget(String pod, String ip, int port, IdleProbe.Check check) {
  }

  private static String hash(Deployment d) {
    Map<String, String> annotations = d.getMetadata() == null ? null : d.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(TEMPLATE_HASH);
  }

  /** When the current {@code RolloutDeferred=True} began, or null when no wait is under way. */
  public static Instant deferredSince(InferenceService isvc) {
    if (isvc.getStatus() == null || isvc.getStatus().conditions() == null) {
      return null;
    }
    return isvc.getStatus().conditions().stream()
        .filter(c -> IsvcStatusAggregator.ROLLOUT_DEFERRED.equals(c.getType()) && "True".equals(c.getStatus())
            && c.getLastTransitionTime() != null)
        .map(c -> Instant.parse(c.getLastTransitionTime())).findFirst().orElse(null);
  }
}
