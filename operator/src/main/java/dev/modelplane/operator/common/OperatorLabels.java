package dev.modelplane.operator.common;

/** Labels the operator puts on every object it manages, whatever the API family. */
public final class OperatorLabels {
  /** Marks objects the operator manages; its informers watch only these. */
  public static final String MANAGED_BY = "app.kubernetes.io/managed-by";
  public static final String MANAGED_BY_VALUE = "modelplane";
  /** Label selector of the operator's informers for owned objects. */
  public static final String MANAGED_SELECTOR = MANAGED_BY + "=" + MANAGED_BY_VALUE;

  private OperatorLabels() {
  }
}
