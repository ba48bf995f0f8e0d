package dev.modelplane.api.otterscale.v1alpha1;

/** Lifecycle summary of a ModelService. */
public enum ModelServicePhase {
  /** The serving Deployments are being created. */
  Pending,
  /** Serving pods exist but not all desired replicas are ready yet. */
  Running,
  /** Every desired serving replica is ready. */
  Ready,
  /** Serving cannot proceed without intervention. */
  Failed
}
