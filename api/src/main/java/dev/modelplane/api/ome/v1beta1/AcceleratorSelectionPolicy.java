package dev.modelplane.api.ome.v1beta1;

/** How one accelerator class is picked when several satisfy the constraints. */
public enum AcceleratorSelectionPolicy {
  /** The class whose capabilities fit the requirements most closely. */
  BestFit,
  /** The least expensive class. */
  Cheapest,
  /** The most capable class. */
  MostCapable,
  /** The first class that satisfies the constraints, in listing order. */
  FirstAvailable
}
