package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The RoPE context-extension method. */
public enum RopeScalingType {
  /** Linear position interpolation. */
  @JsonProperty("linear") LINEAR,
  /** YaRN scaling, the usual choice for long-context extension. */
  @JsonProperty("yarn") YARN,
  /** LongRoPE scaling. */
  @JsonProperty("longrope") LONGROPE
}
