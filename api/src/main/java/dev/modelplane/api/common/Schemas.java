package dev.modelplane.api.common;

/** Schema fragments shared by several API types, for use with {@code @SchemaPatch}. */
public final class Schemas {
  /** A list of conditions keyed by their type, as Kubernetes conventions ask. */
  public static final String CONDITION_LIST =
      "{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"type\"]}";
  /** A list replaced as a whole by server-side apply. */
  public static final String ATOMIC_LIST = "{\"x-kubernetes-list-type\":\"atomic\"}";
  /** An RFC 3339 timestamp. */
  public static final String DATE_TIME = "{\"format\":\"date-time\"}";

  private Schemas() {
  }
}
