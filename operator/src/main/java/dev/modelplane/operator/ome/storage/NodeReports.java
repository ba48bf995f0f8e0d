package dev.modelplane.operator.ome.storage;

/** Where model agents publish their per-node reports, shared by the agents and the controllers. */
public final class NodeReports {
  /** Label of the per-node status ConfigMaps (named after the node, in the agents' namespace). */
  public static final String CONFIGMAP_LABEL = "models.ome/basemodel-status";
  public static final String CONFIGMAP_LABEL_VALUE = "true";
  public static final String CONFIGMAP_SELECTOR = CONFIGMAP_LABEL + "=" + CONFIGMAP_LABEL_VALUE;

  private NodeReports() {
  }
}
