package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * What the cluster says about a ModelService's workloads after an apply.
 *
 * @param decode the decode Deployment, or null
 * @param prefill the prefill Deployment when the spec has prefill pods, else null
 * @param picker the endpoint picker's Deployment, or null
 * @param servingFailure why a serving pod cannot run (first found: pod, container, reason), or null
 * @param pickerFailure why a picker pod cannot run, or null
 * @param clusterBindingRefusal why the picker's ClusterRoleBinding was not made (its name is another owner's), or null
 * @param missingKinds {@code plural.group} of the optional kinds whose CRDs are not installed
 * @param errors apply errors by object
 * @param precisePrefix how precise prefix-cache routing was rendered (the plan's), or null when not used
 */
public record ModelServiceObservation(Deployment decode, Deployment prefill, Deployment picker,
    String servingFailure, String pickerFailure, String clusterBindingRefusal, Set<String> missingKinds,
    Map<String, String> errors, PrecisePrefixStatus precisePrefix) {

  /** Waiting reasons that do not go away without a change: a bad image, a crashing server, a broken config. */
  static final Set<String> STUCK = Set.of("CrashLoopBackOff", "ImagePullBackOff", "ErrImagePull", "InvalidImageName",
      "CreateContainerConfigError", "CreateContainerError");

  public ModelServiceObservation {
    missingKinds = Set.copyOf(missingKinds);
    errors = Map.copyOf(errors);
  }

  /** The first stuck container among {@code pods} as {@code pod/container: reason: message}, or null. */
  static String firstFailure(List<Pod> pods) {
    List<String> found = new ArrayList<>();
    for (Pod pod : pods) {
      if (pod.getStatus() == null || pod.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      List<ContainerStatus> statuses = Stream.concat(
          pod.getStatus().getInitContainerStatuses() == null ? Stream.empty()
              : pod.getStatus().getInitContainerStatuses().stream(),
          pod.getStatus().getContainerStatuses() == null ? Stream.empty()
              : pod.getStatus().getContainerStatuses().stream()).toList();
      for (ContainerStatus c : statuses) {
        var waiting = c.getState() == null ? null : c.getState().getWaiting();
        if (waiting != null && STUCK.contains(waiting.getReason())) {
          var last = c.getLastState() == null ? null : c.getLastState().getTerminated();
          String detail = waiting.getMessage() != null ? waiting.getMessage().strip()
              : last != null && last.getMessage() != null ? last.getMessage().strip()
              : last != null ? "exit code " + last.getExitCode() : "";
          found.add(pod.getMetadata().getName() + "/" + c.getName() + ": " + waiting.getReason()
              + (detail.isEmpty() ? "" : ": " + detail));
        }
      }
    }
    return found.isEmpty() ? null : found.stream().sorted().findFirst().orElseThrow();
  }
}
