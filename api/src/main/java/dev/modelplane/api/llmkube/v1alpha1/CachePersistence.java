package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Whether downloaded model weights outlive the pod. */
public enum CachePersistence {
  /** Weights go to the model cache volume and are reused after a restart (the behaviour when unset). */
  @JsonProperty("Cached") CACHED,
  /**
   * Weights go to an {@code emptyDir} sized by {@code resources.ephemeralStorage} and are downloaded again whenever
   * a pod starts, by every replica; no cache volume is created or mounted.
   */
  @JsonProperty("Ephemeral") EPHEMERAL
}
