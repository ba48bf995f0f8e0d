package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Objects;

/**
 * A model-serving component (engine or decoder): a pod template with deployment settings, a main-container
 * override, and optionally a leader and workers for serving one model replica across several nodes.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class MultiNodeComponentSpec extends ComponentExtensionSpec {
  /**
   * Overrides for the main model-server container. In a runtime this is the container itself; in an
   * InferenceService it is merged over the runtime's container (its args are appended to the runtime's).
   */
  @JsonProperty("runner")
  private RunnerSpec runner;

  /**
   * The leader pod of a multi-node replica, which coordinates the workers and receives the traffic. Setting a
   * leader or worker makes the component multi-node (a LeaderWorkerSet).
   */
  @JsonProperty("leader")
  private LeaderSpec leader;

  /** The worker pods of a multi-node replica, which run their share of the model as the leader directs. */
  @JsonProperty("worker")
  private WorkerSpec worker;

  /**
   * Accelerator class for this component, taking precedence over the InferenceService-level
   * {@code acceleratorSelector}.
   */
  @JsonProperty("acceleratorOverride")
  private AcceleratorSelector acceleratorOverride;

  /** Creates an empty component spec. */
  protected MultiNodeComponentSpec() {
  }

  public RunnerSpec getRunner() {
    return runner;
  }

  public void setRunner(RunnerSpec runner) {
    this.runner = runner;
  }

  public LeaderSpec getLeader() {
    return leader;
  }

  public void setLeader(LeaderSpec leader) {
    this.leader = leader;
  }

  public WorkerSpec getWorker() {
    return worker;
  }

  public void setWorker(WorkerSpec worker) {
    this.worker = worker;
  }

  public AcceleratorSelector getAcceleratorOverride() {
    return acceleratorOverride;
  }

  public void setAcceleratorOverride(AcceleratorSelector acceleratorOverride) {
    this.acceleratorOverride = acceleratorOverride;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof MultiNodeComponentSpec other) || !super.equals(o)) {
      return false;
    }
    return Objects.equals(runner, other.runner) && Objects.equals(leader, other.leader)
        && Objects.equals(worker, other.worker) && Objects.equals(acceleratorOverride, other.acceleratorOverride);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), runner, leader, worker, acceleratorOverride);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + "(" + super.toString() + ", " + extensionFields() + ", runner=" + runner
        + ", leader=" + leader + ", worker=" + worker + ", acceleratorOverride=" + acceleratorOverride + ")";
  }
}
