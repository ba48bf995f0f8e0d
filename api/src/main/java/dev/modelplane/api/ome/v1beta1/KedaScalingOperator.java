package dev.modelplane.api.ome.v1beta1;

/** How KEDA compares the Prometheus query result with the scaling threshold. */
public enum KedaScalingOperator {
  /** Scale out while the metric is above the threshold. */
  GreaterThan,
  /** Scale out while the metric is at or above the threshold. */
  GreaterThanOrEqual,
  /** Scale out while the metric is below the threshold. */
  LessThan,
  /** Scale out while the metric is at or below the threshold (the default when unset). */
  LessThanOrEqual
}
