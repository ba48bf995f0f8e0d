package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.fabric8.generator.annotation.Min;
import java.util.Objects;

/**
 * Legacy multi-node settings of a serving runtime: the worker pods that serve one model replica together with the
 * main pod. Newer runtimes describe workers in {@code engineConfig.worker} instead.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public final class WorkerPodSpec extends ServingRuntimePodSpec {
  /** Number of worker pods per replica, besides the main pod. */
  @JsonProperty("size")
  @Min(0)
  private Integer size;

  /** Creates empty worker settings. */
  public WorkerPodSpec() {
  }

  public Integer getSize() {
    return size;
  }

  public void setSize(Integer size) {
    this.size = size;
  }

  @Override
  public boolean equals(Object o) {
    return super.equals(o) && Objects.equals(size, ((WorkerPodSpec) o).size);
  }

  @Override
  public int hashCode() {
    return Objects.hash(super.hashCode(), size);
  }

  @Override
  public String toString() {
    return "WorkerPodSpec(" + podFields() + ", size=" + size + ")";
  }
}
