package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.Objects;

/**
 * The worker pods of a multi-node model replica, each running its share of the model as the leader directs.
 * Pod-spec fields set here replace the component's for the workers.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.POD_SPEC_LISTS)
public final class WorkerSpec extends PodSpec {
  /**
   * Number of worker pods per replica, besides the leader (a replica has {@code size + 1} pods). The accelerators
   * of all pods together give the parallelism size passed to the model server.
   */
  @JsonProperty("size")
  @Min(0)
  private Integer size;

  /** Overrides for the workers' main container. */
  @JsonProperty("runner")
  @SchemaPatch("{\"required\":[\"name\"]}")
  private RunnerSpec runner;

  /** Creates an empty worker spec. */
  public WorkerSpec() {
  }

  public Integer getSize() {
    return size;
  }

  public void setSize(Integer size) {
    this.size = size;
  }

  public RunnerSpec getRunner() {
    return runner;
  }

  public void setRunner(RunnerSpec runner) {
    this.runner = runner;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true;
    }
    if (!(o instanceof WorkerSpec other) || !super.equals(o)) {
      return false;
    }
    return Objects.equals(size, other.size) && Objects.equals(runner, other.runner);
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof WorkerSpec;
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), size, runner);
  }

  @Override
  public String toString() {
    return "WorkerSpec(" + super.toString() + ", size=" + size + ", runner=" + runner + ")";
  }
}
