package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Whether the serving endpoints already run what the spec asks for. */
public enum TransitionStatus {
  /** Not reported yet. */
  @JsonProperty("") UNKNOWN,
  /** The endpoints serve the model the current spec asks for. */
  @JsonProperty("UpToDate") UP_TO_DATE,
  /** A change of spec is being rolled out. */
  @JsonProperty("InProgress") IN_PROGRESS,
  /** The rollout stopped because the new model failed to load. */
  @JsonProperty("BlockedByFailedLoad") BLOCKED_BY_FAILED_LOAD,
  /** The spec cannot be served as written. */
  @JsonProperty("InvalidSpec") INVALID_SPEC
}
