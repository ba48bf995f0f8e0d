package dev.modelplane.api.common;

/** Schema fragments shared by several API types, for use with {@code @SchemaPatch}. */
public final class Schemas {
  private static final String PENDING_HEAD =
      "{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"type\"],\"default\":[{\"type\":\"";
  private static final String PENDING_TAIL = "\",\"status\":\"Unknown\",\"reason\":\"Pending\","
      + "\"message\":\"Waiting for controller\",\"lastTransitionTime\":\"1970-01-01T00:00:00Z\"}]}";
  /** A list of conditions keyed by their type, as Kubernetes conventions ask. */
  public static final String CONDITION_LIST =
      "{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"type\"]}";
  /** A list replaced as a whole by server-side apply. */
  public static final String ATOMIC_LIST = "{\"x-kubernetes-list-type\":\"atomic\"}";
  /**
   * A list of conditions keyed by type that starts, until a controller writes it, as one {@code Ready} condition with
   * status {@code Unknown} and reason {@code Pending}.
   */
  public static final String READY_PENDING_CONDITIONS = PENDING_HEAD + "Ready" + PENDING_TAIL;
  /** As {@link #READY_PENDING_CONDITIONS}, with an {@code Accepted} condition. */
  public static final String ACCEPTED_PENDING_CONDITIONS = PENDING_HEAD + "Accepted" + PENDING_TAIL;
  /** An RFC 3339 timestamp. */
  public static final String DATE_TIME = "{\"format\":\"date-time\"}";

  private Schemas() {
  }
}
