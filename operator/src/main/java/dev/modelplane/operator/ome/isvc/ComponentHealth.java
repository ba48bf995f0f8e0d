package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.AcceleratorSelection;
import dev.modelplane.api.ome.v1beta1.Addressable;
import dev.modelplane.api.ome.v1beta1.TrafficTarget;
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
 * @param knative what a serverless component's Knative Service reports, or null for other modes
 */
public record ComponentHealth(String component, boolean ready, String reason, String message,
    String latestCreatedRevision, String url, AcceleratorSelection accelerator, List<Pod> pods,
    String mainContainer, Knative knative) {
  public ComponentHealth {
    pods = pods == null ? List.of() : List.copyOf(pods);
  }

  /**
   * A serverless component's revisions and addresses, from its Knative Service's status.
   *
   * @param latestReadyRevision the newest ready revision, or null
   * @param latestRolledoutRevision the revision that last took all traffic, or null
   * @param previousRolledoutRevision the one that took all traffic before it, or null
   * @param traffic the traffic split, as Knative reports it (empty before it reports one)
   * @param url the Knative Service's URL once Ready, or null
   * @param address its in-cluster address once Ready, or null
   */
  public record Knative(String latestReadyRevision, String latestRolledoutRevision, String previousRolledoutRevision,
      List<TrafficTarget> traffic, String url, Addressable address) {
    public Knative {
      traffic = traffic == null ? List.of() : List.copyOf(traffic);
    }
  }

  /** A component without revisions of its own (a Deployment or LeaderWorkerSet). */
  public ComponentHealth(String component, boolean ready, String reason, String message,
      String latestCreatedRevision, String url, AcceleratorSelection accelerator, List<Pod> pods,
      String mainContainer) {
    this(component, ready, reason, message, latestCreatedRevision, url, accelerator, pods, mainContainer, null);
  }

  /** The condition type of this component: {@code EngineReady}, {@code DecoderReady} or {@code RouterReady}. */
  public String conditionType() {
    return Character.toUpperCase(component.charAt(0)) + component.substring(1) + "Ready";
  }
}
