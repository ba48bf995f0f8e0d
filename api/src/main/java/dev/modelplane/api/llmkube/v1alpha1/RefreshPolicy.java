package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** Whether a cached model file is fetched again when its source changes. */
public enum RefreshPolicy {
  /** Download only when the cached copy is missing; a changed source is only reported (the default). */
  @JsonProperty("IfNotPresent") IF_NOT_PRESENT,
  /** Download again when the source's size or ETag (or a local file's size or modification time) changes. */
  @JsonProperty("OnChange") ON_CHANGE
}
