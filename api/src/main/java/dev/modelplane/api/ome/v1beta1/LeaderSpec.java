package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.Objects;

/**
 * The leader pod of a multi-node model replica: it coordinates the workers (e.g. as the Ray head or the rank-0
 * process) and serves the requests. Pod-spec fields set here replace the component's for the leader.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@SchemaPatch(PodTemplateSchemas.POD_SPEC_LISTS)
public final class LeaderSpec extends PodSpec {
  /** Overrides for the leader's main container. */
  @JsonProperty("runner")
  @SchemaPatch("{\"required\":[\"name\"]}")
  private RunnerSpec runner;

  /** Creates an empty leader spec. */
  public LeaderSpec() {
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
    if (!(o instanceof LeaderSpec other) || !super.equals(o)) {
      return false;
    }
    return Objects.equals(runner, other.runner);
  }

  @Override
  protected boolean canEqual(Object other) {
    return other instanceof LeaderSpec;
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), runner);
  }

  @Override
  public String toString() {
    return "LeaderSpec(" + super.toString() + ", runner=" + runner + ")";
  }
}
