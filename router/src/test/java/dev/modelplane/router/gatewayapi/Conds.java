package dev.modelplane.router.gatewayapi;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;

/** Reading and checking conditions in the compiled statuses. */
final class Conds {
  private Conds() {}

  /** The condition of {@code type} in {@code holder.conditions}; fails when absent. */
  static JsonNode get(JsonNode holder, String type) {
    for (JsonNode condition : holder.path("conditions")) {
      if (type.equals(condition.path("type").asText())) {
        return condition;
      }
    }
    throw new AssertionError("no condition " + type + " in " + holder);
  }

  /** Asserts status and reason of the condition of {@code type}, and returns its message. */
  static String check(JsonNode holder, String type, boolean status, String reason) {
    JsonNode condition = get(holder, type);
    assertThat(condition.path("status").asText()).as(type + " status in " + holder)
        .isEqualTo(status ? "True" : "False");
    assertThat(condition.path("reason").asText()).as(type + " reason in " + holder).isEqualTo(reason);
    assertThat(condition.path("message").asText()).isNotEmpty();
    return condition.path("message").asText();
  }

  /** The listener status named {@code name} of a Gateway status. */
  static JsonNode listener(JsonNode gatewayStatus, String name) {
    for (JsonNode listener : gatewayStatus.path("listeners")) {
      if (name.equals(listener.path("name").asText())) {
        return listener;
      }
    }
    throw new AssertionError("no listener " + name + " in " + gatewayStatus);
  }
}
