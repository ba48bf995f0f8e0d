package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Builds the conditions of the Gateway API and GIE statuses. */
final class Conditions {
  /** Written where a time is due but unknown; {@link StatusMerge#carryTransitionTimes} replaces it. */
  static final String PLACEHOLDER_TIME = "1970-01-01T00:00:00Z";

  static final String ACCEPTED = "Accepted";
  static final String PROGRAMMED = "Programmed";
  static final String RESOLVED_REFS = "ResolvedRefs";
  static final String CONFLICTED = "Conflicted";

  private Conditions() {}

  /** A condition with the given type, status, reason and message, observing {@code generation}. */
  static ObjectNode of(String type, boolean status, String reason, String message, long generation) {
    ObjectNode condition = Json.object();
    condition.put("type", type);
    condition.put("status", status ? "True" : "False");
    condition.put("reason", reason);
    condition.put("message", message);
    condition.put("observedGeneration", generation);
    condition.put("lastTransitionTime", PLACEHOLDER_TIME);
    return condition;
  }

  /** A condition whose status is True and whose reason repeats the type (the Gateway API's usual positive form). */
  static ObjectNode ok(String type, String message, long generation) {
    return of(type, true, type, message, generation);
  }
}
