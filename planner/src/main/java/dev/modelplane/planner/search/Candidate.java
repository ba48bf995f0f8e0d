package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.RouterProfile;

/**
 * One configuration a plan considers.
 *
 * @param gpu the GPU's short name (h100, h200, a100, l40s, l4)
 * @param tensorParallelSize GPUs per replica
 * @param replicas model-server replicas
 * @param profile the router's scheduling
 */
public record Candidate(String gpu, int tensorParallelSize, int replicas, RouterProfile profile) {
  /** GPUs the configuration takes. */
  public int gpus() {
    return tensorParallelSize * replicas;
  }
}
