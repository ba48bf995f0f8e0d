package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The signal a service-level objective measures. */
public enum SloIndicator {
  /** Whether the serving pods can be scraped (Prometheus {@code up}); the default. */
  @JsonProperty("availability") AVAILABILITY,
  /**
   * The share of requests faster than {@code latencyThreshold}; needs a request-latency histogram, which only the
   * {@code vllm} runtime exports.
   */
  @JsonProperty("latency") LATENCY
}
