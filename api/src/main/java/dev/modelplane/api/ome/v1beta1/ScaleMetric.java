package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The metric an autoscaler tracks for a component. */
public enum ScaleMetric {
  /** CPU utilisation, as a percentage of the requested CPU (HorizontalPodAutoscaler). */
  @JsonProperty("cpu") CPU,
  /** Memory utilisation, as a percentage of the requested memory (HorizontalPodAutoscaler). */
  @JsonProperty("memory") MEMORY,
  /** Requests in flight per pod (Knative autoscaler, serverless mode only). */
  @JsonProperty("concurrency") CONCURRENCY,
  /** Requests per second per pod (Knative autoscaler, serverless mode only). */
  @JsonProperty("rps") RPS
}
