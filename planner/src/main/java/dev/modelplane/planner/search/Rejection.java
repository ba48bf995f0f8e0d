package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.RouterProfile;

/**
 * A configuration that cannot meet the objectives, and why.
 *
 * @param gpu the GPU's name
 * @param tensorParallelSize GPUs per replica
 * @param profile the router profile, or null when the reason holds for every profile (the model does not fit)
 * @param reason one sentence
 */
public record Rejection(String gpu, int tensorParallelSize, RouterProfile profile, String reason) {
  /** One line: {@code h100 TP=1 precise: ...}. */
  public String describe() {
    return gpu + " TP=" + tensorParallelSize + (profile == null ? "" : " " + profile.label()) + ": " + reason;
  }
}
