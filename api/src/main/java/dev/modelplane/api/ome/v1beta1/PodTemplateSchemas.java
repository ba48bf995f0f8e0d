package dev.modelplane.api.ome.v1beta1;

/**
 * Schema fragments for the OME types that embed a Kubernetes pod spec or container, for use with
 * {@code @SchemaPatch}. fabric8's pod model carries no list semantics, so these restore the ones the built-in
 * types declare: containers, volumes, environment variables and the other keyed lists merge by key under
 * server-side apply; args, commands, tolerations and readiness gates are replaced whole. Container ports default
 * to TCP, as in a Pod.
 */
public final class PodTemplateSchemas {
  private static final String ATOMIC = "{\"x-kubernetes-list-type\":\"atomic\"}";

  /** List semantics of a container's own fields, as the properties of a container schema. */
  private static final String CONTAINER_PROPERTIES = "{"
      + "\"args\":" + ATOMIC + ","
      + "\"command\":" + ATOMIC + ","
      + "\"envFrom\":" + ATOMIC + ","
      + "\"resizePolicy\":" + ATOMIC + ","
      + "\"env\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"name\"],"
      + "\"items\":{\"required\":[\"name\"]}},"
      + "\"volumeMounts\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"mountPath\"],"
      + "\"items\":{\"required\":[\"name\",\"mountPath\"]}},"
      + "\"volumeDevices\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"devicePath\"],"
      + "\"items\":{\"required\":[\"name\",\"devicePath\"]}},"
      + "\"ports\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"containerPort\",\"protocol\"],"
      + "\"items\":{\"required\":[\"containerPort\"],\"properties\":{\"protocol\":{\"default\":\"TCP\"}}}}"
      + "}";

  /** List semantics of a container's fields, merged into the schema of a type that extends fabric8's Container. */
  public static final String CONTAINER_LISTS = "{\"properties\":" + CONTAINER_PROPERTIES + "}";

  /** A list of containers merged by name, with the list semantics of each container's fields. */
  public static final String CONTAINERS = "{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"name\"],"
      + "\"items\":{\"required\":[\"name\"],\"properties\":" + CONTAINER_PROPERTIES + "}}";

  /** A list of volumes (or other named items) merged by name. */
  public static final String LIST_BY_NAME =
      "{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"name\"],\"items\":{\"required\":[\"name\"]}}";

  /** A list of image-pull secret references merged by name. */
  public static final String IMAGE_PULL_SECRETS =
      "{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"name\"],"
          + "\"items\":{\"properties\":{\"name\":{\"default\":\"\"}}}}";

  /** List semantics of the pod-spec fields, merged into the schema of a type that extends fabric8's PodSpec. */
  public static final String POD_SPEC_LISTS = "{\"properties\":{"
      + "\"containers\":" + CONTAINERS + ","
      + "\"initContainers\":" + CONTAINERS + ","
      + "\"ephemeralContainers\":" + CONTAINERS + ","
      + "\"volumes\":" + LIST_BY_NAME + ","
      + "\"schedulingGates\":" + LIST_BY_NAME + ","
      + "\"resourceClaims\":" + LIST_BY_NAME + ","
      + "\"imagePullSecrets\":" + IMAGE_PULL_SECRETS + ","
      + "\"hostAliases\":{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"ip\"],"
      + "\"items\":{\"required\":[\"ip\"]}},"
      + "\"topologySpreadConstraints\":{\"x-kubernetes-list-type\":\"map\","
      + "\"x-kubernetes-list-map-keys\":[\"topologyKey\",\"whenUnsatisfiable\"],"
      + "\"items\":{\"required\":[\"topologyKey\",\"whenUnsatisfiable\"]}},"
      + "\"tolerations\":" + ATOMIC + ","
      + "\"readinessGates\":{\"x-kubernetes-list-type\":\"atomic\",\"items\":{\"required\":[\"conditionType\"]}},"
      + "\"nodeSelector\":{\"x-kubernetes-map-type\":\"atomic\"}"
      + "}}";

  private PodTemplateSchemas() {
  }
}
