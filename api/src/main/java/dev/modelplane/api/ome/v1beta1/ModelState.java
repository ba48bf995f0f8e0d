package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Where a model revision stands in its loading life cycle. */
public enum ModelState {
  /** Not reported yet. */
  @JsonProperty("") UNKNOWN,
  /** Waiting for pods to be created or scheduled. */
  @JsonProperty("Pending") PENDING,
  /** Ready to be loaded, but not loaded. */
  @JsonProperty("Standby") STANDBY,
  /** Weights are being fetched or loaded into the server. */
  @JsonProperty("Loading") LOADING,
  /** Loaded and serving. */
  @JsonProperty("Loaded") LOADED,
  /** Loading failed; see {@code lastFailureInfo}. */
  @JsonProperty("FailedToLoad") FAILED_TO_LOAD
}
