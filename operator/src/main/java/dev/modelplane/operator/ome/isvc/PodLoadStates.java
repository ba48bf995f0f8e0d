package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.ModelState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * The model-loading state of a serving pod, read as OME reads it: a model-fetching init container still running
 * means Loading; the serving container (or an init container) ending in an error or crash-looping means
 * FailedToLoad; a ready pod has the model Loaded; a running pod not yet ready is still Loading; anything else is
 * Pending.
 */
final class PodLoadStates {
  private PodLoadStates() {
  }

  /**
   * One pod's state.
   *
   * @param pod the pod's name
   * @param state its model state
   * @param message why it failed, or null
   * @param exitCode the failed container's exit code, or null
   */
  record PodLoad(String pod, ModelState state, String message, Integer exitCode) {
  }

  static PodLoad of(Pod pod, String mainContainer) {
    String name = pod.getMetadata().getName();
    var status = pod.getStatus();
    if (status == null) {
      return new PodLoad(name, ModelState.PENDING, null, null);
    }
    List<ContainerStatus> containers = new ArrayList<>();
    if (status.getInitContainerStatuses() != null) {
      containers.addAll(status.getInitContainerStatuses());
    }
    if (status.getContainerStatuses() != null) {
      containers.addAll(status.getContainerStatuses().stream()
          .filter(c -> mainContainer == null || mainContainer.equals(c.getName())).toList());
    }
    for (ContainerStatus c : containers) {
      PodLoad failed = failure(name, c);
      if (failed != null) {
        return failed;
      }
    }
    if (status.getInitContainerStatuses() != null && status.getInitContainerStatuses().stream()
        .anyMatch(c -> c.getState() != null && c.getState().getRunning() != null)) {
      return new PodLoad(name, ModelState.LOADING, null, null);
    }
    if (ready(pod)) {
      return new PodLoad(name, ModelState.LOADED, null, null);
    }
    return new PodLoad(name, "Running".equals(status.getPhase()) ? ModelState.LOADING : ModelState.PENDING, null,
        null);
  }

  static boolean ready(Pod pod) {
    return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions()
        .stream().anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static PodLoad failure(String pod, ContainerStatus c) {
    var state = c.getState();
    if (state != null && state.getWaiting() != null && "CrashLoopBackOff".equals(state.getWaiting().getReason())) {
      var last = c.getLastState() == null ? null : c.getLastState().getTerminated();
      return new PodLoad(pod, ModelState.FAILED_TO_LOAD, "container " + c.getName() + " is crash-looping"
          + (last != null && last.getMessage() != null ? ": " + last.getMessage().strip() : ""),
          last == null ? null : last.getExitCode());
    }
    if (state != null && state.getTerminated() != null && state.getTerminated().getExitCode() != null
        && state.getTerminated().getExitCode() != 0) {
      var t = state.getTerminated();
      return new PodLoad(pod, ModelState.FAILED_TO_LOAD, "container " + c.getName() + " exited with code "
          + t.getExitCode() + (t.getReason() != null ? " (" + t.getReason() + ")" : "")
          + (t.getMessage() != null ? ": " + t.getMessage().strip() : ""), t.getExitCode());
    }
    return null;
  }
}
