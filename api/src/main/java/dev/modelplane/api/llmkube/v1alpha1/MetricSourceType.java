package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where an autoscaling metric comes from. */
public enum MetricSourceType {
  /**
   * A custom per-pod metric served by the custom-metrics API (for example a Prometheus adapter), compared as an
   * average value per pod.
   */
  @JsonProperty("Pods") PODS,
  /**
   * A container resource such as {@code cpu} or {@code memory}, compared as a utilisation percentage of the
   * request.
   */
  @JsonProperty("Resource") RESOURCE
}
