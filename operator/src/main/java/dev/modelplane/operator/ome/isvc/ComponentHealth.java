package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.AcceleratorSelection;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.List;

/**
 * What the live objects say about one declared component of an InferenceService.
 *
 * @param component {@code engine}, {@code decoder} or {@code router}
 * @param ready whether the component's workload is available
 * @param reason CamelCase reason of its {@code <Component>Ready} condition
 * @param message what the workload reports
 * @param latestCreatedRevision the workload's revision, or null
 * @param url the component's in-cluster URL once ready, or null
 * @param accelerator the accelerator class chosen for it, or null
 * @param pods the component's pods (leaders and workers alike)
 * @param mainContainer the name of the container serving the model
 * @param latestReadyRevision a serverless component's newest ready revision, or null
 * @param latestRolledoutRevision the revision that last took all of a serverless component's traffic, or null
 */
public record ComponentHealth(String component, boolean ready, String reason, String message,
    String latestCreatedRevision, String url, AcceleratorSelection accelerator, List<Pod> pods,
    String mainContainer, String latestReadyRevision, String latestRolledoutRevision) {
  public ComponentHealth {
    pods = pods == null ? List.of() : List.copyOf(pods);
  }

  /** A component without revisions of its own (a Deployment or LeaderWorkerSet). */
  public ComponentHealth(String component, boolean ready, String reason, String message,
      String latestCreatedRevision, String url, AcceleratorSelection accelerator, List<Pod> pods,
      String mainContainer) {
    this(component, ready, reason, message, latestCreatedRevision, url, accelerator, pods, mainContainer, null,
        null);
  }

  /** The condition type of this component: {@code EngineReady}, {@code DecoderReady} or {@code RouterReady}. */
  public String conditionType() {
    return Character.toUpperCase(component.charAt(0)) + component.substring(1) + "Ready";
  }
}
