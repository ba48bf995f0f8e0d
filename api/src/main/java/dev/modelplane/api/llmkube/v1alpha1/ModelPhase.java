package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Lifecycle phase of a Model. */
public enum ModelPhase {
  /** Not resolved yet, for example waiting for its PersistentVolumeClaim to be bound. */
  @JsonProperty("Pending") PENDING,
  /** Being downloaded into the model cache. */
  @JsonProperty("Downloading") DOWNLOADING,
  /** Being copied from a local path. */
  @JsonProperty("Copying") COPYING,
  /** Usable by InferenceServices. */
  @JsonProperty("Ready") READY,
  /** Cannot be made available; the Degraded condition says why. */
  @JsonProperty("Failed") FAILED
}
