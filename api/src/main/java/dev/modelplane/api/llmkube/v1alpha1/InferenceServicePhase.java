package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Lifecycle phase of an InferenceService. */
public enum InferenceServicePhase {
  /** Waiting for something outside the service, typically its Model to become Ready. */
  @JsonProperty("Pending") PENDING,
  /** The workload is being created and no pod is ready yet. */
  @JsonProperty("Creating") CREATING,
  /** Some, but not all, desired pods are ready. */
  @JsonProperty("Progressing") PROGRESSING,
  /** Every desired pod is ready and the endpoint serves requests. */
  @JsonProperty("Ready") READY,
  /** Pods cannot be scheduled because the cluster has no free GPU; see {@code queuePosition}. */
  @JsonProperty("WaitingForGPU") WAITING_FOR_GPU,
  /** Scaled to zero replicas on purpose; not an error. */
  @JsonProperty("Stopped") STOPPED,
  /**
   * Held at zero pods by {@code spec.suspend} while {@code spec.replicas} is kept for when it is lifted; not an
   * error.
   */
  @JsonProperty("Suspended") SUSPENDED,
  /** The service cannot be reconciled; the Degraded condition says why. */
  @JsonProperty("Failed") FAILED
}
