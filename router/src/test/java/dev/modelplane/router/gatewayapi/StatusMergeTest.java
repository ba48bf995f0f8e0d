package dev.modelplane.router.gatewayapi;

import static dev.modelplane.router.gatewayapi.Fixture.POOL_A;
import static dev.modelplane.router.gatewayapi.Fixture.route;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.PoolKey;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging parent entries, carrying transition times and comparing statuses. */
class StatusMergeTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = Instant.parse("2025-03-04T05:06:07.891Z");
  private static final String OLD = "2024-01-01T00:00:00Z";

  private static JsonNode json(String text) {
    try {
      return JSON.readTree(text.replace('\'', '"'));
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void mergeKeepsOtherControllersAndReplacesOurs() {
    JsonNode stored = json("""
        [{'parentRef': {'name': 'istio-gw'}, 'controllerName': 'istio.io/gateway-controller', 'conditions': []},
         {'parentRef': {'name': 'gw'}, 'controllerName': 'modelplane.dev/gateway-controller', 'conditions': []},
         {'parentRef': {'name': 'envoy-gw'}, 'controllerName': 'gateway.envoyproxy.io/gatewayclass-controller'}]
        """);
    ObjectNode ours = (ObjectNode) json("{'parentRef': {'name': 'gw2'}, 'controllerName': "
        + "'modelplane.dev/gateway-controller'}");
    ArrayNode merged = StatusMerge.mergeParents(stored, List.of(ours), Fixture.CONTROLLER);
    assertThat(merged).extracting(e -> e.path("parentRef").path("name").asText())
        .containsExactly("istio-gw", "envoy-gw", "gw2");
    assertThat(StatusMerge.mergeParents(stored, List.of(), Fixture.CONTROLLER))
        .extracting(e -> e.path("parentRef").path("name").asText()).containsExactly("istio-gw", "envoy-gw");
    assertThat(StatusMerge.mergeParents(null, List.of(ours), Fixture.CONTROLLER)).containsExactly(ours);
  }

  @Test
  void thePlaceholderParentGoesOnlyWhenWeHaveEntries() {
    JsonNode stored = json("""
        [{'parentRef': {'kind': 'Status', 'name': 'default'},
          'conditions': [{'type': 'Accepted', 'status': 'Unknown', 'reason': 'Pending'}]}]
        """);
    ObjectNode ours = (ObjectNode) json("{'parentRef': {'kind': 'Gateway', 'name': 'gw'}, 'controllerName': "
        + "'modelplane.dev/gateway-controller'}");
    assertThat(StatusMerge.mergeParents(stored, List.of(ours), Fixture.CONTROLLER)).containsExactly(ours);
    assertThat(StatusMerge.mergeParents(stored, List.of(), Fixture.CONTROLLER)).hasSize(1);
  }

  @Test
  void transitionTimesMoveOnlyWhenTheStatusChanges() {
    JsonNode stored = json("""
        {'conditions': [{'type': 'Accepted', 'status': 'True', 'lastTransitionTime': '%s'},
                        {'type': 'Programmed', 'status': 'False', 'lastTransitionTime': '%s'}],
         'listeners': [{'name': 'b', 'conditions': [{'type': 'Accepted', 'status': 'True',
                          'lastTransitionTime': '2023-05-05T05:05:05Z'}]},
                       {'name': 'a', 'conditions': [{'type': 'Accepted', 'status': 'False',
                          'lastTransitionTime': '2023-05-05T05:05:05Z'}]}]}
        """.formatted(OLD, OLD));
    JsonNode desired = json("""
        {'conditions': [{'type': 'Accepted', 'status': 'True', 'lastTransitionTime': '1970-01-01T00:00:00Z'},
                        {'type': 'Programmed', 'status': 'True', 'lastTransitionTime': '1970-01-01T00:00:00Z'},
                        {'type': 'New', 'status': 'True'}],
         'listeners': [{'name': 'a', 'conditions': [{'type': 'Accepted', 'status': 'True'}]},
                       {'name': 'b', 'conditions': [{'type': 'Accepted', 'status': 'True'}]}]}
        """);
    JsonNode result = StatusMerge.carryTransitionTimes(stored, desired, NOW);
    assertThat(result).isSameAs(desired);
    assertThat(Conds.get(desired, "Accepted").path("lastTransitionTime").asText()).isEqualTo(OLD);
    assertThat(Conds.get(desired, "Programmed").path("lastTransitionTime").asText())
        .isEqualTo("2025-03-04T05:06:07Z");
    assertThat(Conds.get(desired, "New").path("lastTransitionTime").asText()).isEqualTo("2025-03-04T05:06:07Z");
    assertThat(Conds.get(Conds.listener(desired, "a"), "Accepted").path("lastTransitionTime").asText())
        .isEqualTo("2025-03-04T05:06:07Z");
    assertThat(Conds.get(Conds.listener(desired, "b"), "Accepted").path("lastTransitionTime").asText())
        .as("matched by name, not position").isEqualTo("2023-05-05T05:05:05Z");
  }

  @Test
  void parentEntriesAreMatchedByParentRef() {
    JsonNode stored = json("""
        [{'parentRef': {'name': 'other'}, 'controllerName': 'modelplane.dev/gateway-controller',
          'conditions': [{'type': 'Accepted', 'status': 'True', 'lastTransitionTime': '2022-02-02T02:02:02Z'}]},
         {'parentRef': {'name': 'gw'}, 'controllerName': 'modelplane.dev/gateway-controller',
          'conditions': [{'type': 'Accepted', 'status': 'True', 'lastTransitionTime': '%s'}]}]
        """.formatted(OLD));
    JsonNode desired = json("""
        [{'parentRef': {'name': 'gw'}, 'controllerName': 'modelplane.dev/gateway-controller',
          'conditions': [{'type': 'Accepted', 'status': 'True'}]}]
        """);
    StatusMerge.carryTransitionTimes(stored, desired, NOW);
    assertThat(Conds.get(desired.get(0), "Accepted").path("lastTransitionTime").asText()).isEqualTo(OLD);
    StatusMerge.carryTransitionTimes(null, desired, NOW);
    assertThat(Conds.get(desired.get(0), "Accepted").path("lastTransitionTime").asText())
        .isEqualTo("2025-03-04T05:06:07Z");
  }

  @Test
  void sameIgnoringTimes() {
    JsonNode a = json("{'conditions': [{'type': 'Accepted', 'status': 'True', 'observedGeneration': 3, "
        + "'lastTransitionTime': '" + OLD + "'}]}");
    ObjectNode b = (ObjectNode) a.deepCopy();
    ((ObjectNode) b.get("conditions").get(0)).put("lastTransitionTime", "2030-01-01T00:00:00Z")
        .put("observedGeneration", 3L);
    assertThat(StatusMerge.sameIgnoringTimes(a, b)).isTrue();
    ((ObjectNode) b.get("conditions").get(0)).put("status", "False");
    assertThat(StatusMerge.sameIgnoringTimes(a, b)).isFalse();
    assertThat(StatusMerge.sameIgnoringTimes(null, null)).isTrue();
    assertThat(StatusMerge.sameIgnoringTimes(a, null)).isFalse();
  }

  @Test
  void aStoredStatusEqualsTheNextCompilationOfTheSameInputs() throws Exception {
    Fixture fixture = Fixture.standard().add(route("r", "rules:\n- backendRefs: [" + POOL_A + "]\n"));
    JsonNode first = fixture.compile().statuses().gateways().get("default/gw");
    StatusMerge.carryTransitionTimes(null, first, Instant.parse(OLD));
    JsonNode stored = JSON.readTree(JSON.writeValueAsString(first));
    JsonNode next = fixture.compile().statuses().gateways().get("default/gw");
    StatusMerge.carryTransitionTimes(stored, next, NOW);
    assertThat(next.toString()).as("same JSON text, times included").isEqualTo(stored.toString());
    assertThat(StatusMerge.sameIgnoringTimes(stored, next)).isTrue();

    PoolKey pool = new PoolKey("default", "pool-a");
    ArrayNode storedParents = StatusMerge.mergeParents(null, fixture.compile().statuses().poolParents().get(pool),
        Fixture.CONTROLLER);
    ArrayNode again = StatusMerge.mergeParents(storedParents, fixture.compile().statuses().poolParents().get(pool),
        Fixture.CONTROLLER);
    assertThat(StatusMerge.sameIgnoringTimes(storedParents, again)).isTrue();
  }
}
