package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Priority tier of an InferenceService when GPUs are scarce; each tier maps to a PriorityClass. */
public enum SchedulingPriority {
  /** Highest tier; may preempt every lower tier. */
  @JsonProperty("critical") CRITICAL,
  /** May preempt normal, low and batch services. */
  @JsonProperty("high") HIGH,
  /** The default tier. */
  @JsonProperty("normal") NORMAL,
  /** Yields to every tier above it. */
  @JsonProperty("low") LOW,
  /** Lowest tier; never preempts other pods. */
  @JsonProperty("batch") BATCH
}
