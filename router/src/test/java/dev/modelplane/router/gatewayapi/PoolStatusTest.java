package dev.modelplane.router.gatewayapi;

import static dev.modelplane.router.gatewayapi.Conds.check;
import static dev.modelplane.router.gatewayapi.Fixture.POOL_A;
import static dev.modelplane.router.gatewayapi.Fixture.route;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.PoolKey;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Our entries in InferencePool status.parents. */
class PoolStatusTest {
  private static final PoolKey A = new PoolKey("default", "pool-a");
  private static final PoolKey B = new PoolKey("default", "pool-b");

  private static final String PICKER_POOL = """
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata: {name: pool-a, namespace: default, generation: 9}
      spec:
        selector: {matchLabels: {app: a}}
        targetPorts: [{number: 8000}]
        endpointPickerRef: {name: epp, port: {number: 9002}}
      """;

  private static List<ObjectNode> entries(GatewayModel model, PoolKey pool) {
    return model.statuses().poolParents().get(pool);
  }

  @Test
  void aPoolBehindAnAcceptedRouteIsAcceptedForThatGateway() {
    GatewayModel model = Fixture.standard().add(route("r", "rules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    List<ObjectNode> entries = entries(model, A);
    assertThat(entries).hasSize(1);
    ObjectNode entry = entries.get(0);
    assertThat(entry.path("parentRef").toString()).isEqualTo(
        "{\"group\":\"gateway.networking.k8s.io\",\"kind\":\"Gateway\",\"namespace\":\"default\",\"name\":\"gw\"}");
    assertThat(entry.path("controllerName").asText()).isEqualTo(Fixture.CONTROLLER);
    check(entry, "Accepted", true, "Accepted");
    check(entry, "ResolvedRefs", true, "ResolvedRefs");
    assertThat(Conds.get(entry, "Accepted").path("observedGeneration").asLong()).isEqualTo(5);
    assertThat(entries(model, B)).as("an unreferenced pool gets an empty list").isEmpty();
  }

  @Test
  void aPoolOnlyBehindRefusedRoutesIsHttpRouteNotAccepted() {
    GatewayModel model = Fixture.standard().add(route("r", "parentRefs: [{name: gw, sectionName: nope}]\nrules:\n"
        + "- backendRefs: [" + POOL_A + "]\n")).compile();
    check(entries(model, A).get(0), "Accepted", false, "HTTPRouteNotAccepted");
  }

  @Test
  void oneAcceptedRouteIsEnough() {
    GatewayModel model = Fixture.standard()
        .add(route("refused", "parentRefs: [{name: gw, sectionName: nope}]\nrules:\n- backendRefs: [" + POOL_A
            + "]\n"))
        .add(route("ok", "rules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    assertThat(entries(model, A)).hasSize(1);
    check(entries(model, A).get(0), "Accepted", true, "Accepted");
  }

  @Test
  void aMissingPickerServiceIsInvalidExtensionRef() {
    GatewayModel model = Fixture.standard().add(PICKER_POOL)
        .add(route("r", "rules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    ObjectNode entry = entries(model, A).get(0);
    assertThat(check(entry, "ResolvedRefs", false, "InvalidExtensionRef"))
        .isEqualTo("endpointPickerRef names Service default/epp, which does not exist");
    assertThat(Conds.get(entry, "ResolvedRefs").path("observedGeneration").asLong()).isEqualTo(9);
    check(entry, "Accepted", true, "Accepted");

    GatewayModel fixed = Fixture.standard().add(PICKER_POOL).service("default/epp")
        .add(route("r", "rules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    check(entries(fixed, A).get(0), "ResolvedRefs", true, "ResolvedRefs");
  }

  @Test
  void aPickerOfAnotherKindIsInvalidExtensionRef() {
    GatewayModel model = Fixture.standard().service("default/epp")
        .add(PICKER_POOL.replace("{name: epp,", "{group: example.com, kind: Picker, name: epp,"))
        .add(route("r", "rules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    assertThat(check(entries(model, A).get(0), "ResolvedRefs", false, "InvalidExtensionRef"))
        .contains("example.com/Picker", "only a core Service");
  }

  @Test
  void oneEntryPerGatewayInNameOrder() {
    GatewayModel model = Fixture.standard().add(Fixture.gateway("another",
        "- {name: http, port: 9090, protocol: HTTP}\n")).add(route("r", "parentRefs: [{name: gw}, {name: another}]\nrules:\n- backendRefs: [" + POOL_A
        + "]\n")).compile();
    assertThat(entries(model, A)).extracting(e -> e.path("parentRef").path("name").asText())
        .containsExactly("another", "gw");
    assertThat(model.listenerPorts()).containsExactly(8080, 9090);
  }
}
