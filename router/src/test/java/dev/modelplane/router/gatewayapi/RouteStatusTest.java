package dev.modelplane.router.gatewayapi;

import static dev.modelplane.router.gatewayapi.Conds.check;
import static dev.modelplane.router.gatewayapi.Fixture.POOL_A;
import static dev.modelplane.router.gatewayapi.Fixture.get;
import static dev.modelplane.router.gatewayapi.Fixture.route;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.PoolKey;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Our entries in HTTPRoute status.parents: attachment outcomes and backend resolution. */
class RouteStatusTest {
  private static final String SELECTOR_GATEWAY = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: gw, namespace: infra}
      spec:
        gatewayClassName: modelplane
        listeners:
        - name: http
          port: 8080
          protocol: HTTP
          allowedRoutes:
            namespaces:
              from: Selector
              selector:
                matchLabels: {gateway-access: "true"}
                matchExpressions: [{key: env, operator: NotIn, values: [prod]}]
      """;

  private static List<ObjectNode> parents(GatewayModel model, String route) {
    return model.statuses().httpRouteParents().get(route);
  }

  private static JsonNode onlyParent(GatewayModel model, String route) {
    List<ObjectNode> parents = parents(model, route);
    assertThat(parents).hasSize(1);
    return parents.get(0);
  }

  @Test
  void anAcceptedRoute() {
    GatewayModel model = Fixture.standard().add(route("r", """
        parentRefs: [{name: gw}]
        rules:
        - backendRefs: [%s]
        """.formatted(POOL_A))).compile();
    JsonNode parent = onlyParent(model, "default/r");
    assertThat(parent.path("parentRef").toString()).as("copied as written").isEqualTo("{\"name\":\"gw\"}");
    assertThat(parent.path("controllerName").asText()).isEqualTo(Fixture.CONTROLLER);
    assertThat(check(parent, "Accepted", true, "Accepted")).contains("http");
    check(parent, "ResolvedRefs", true, "ResolvedRefs");
    assertThat(Conds.get(parent, "Accepted").path("observedGeneration").asLong()).isEqualTo(7);
  }

  @Test
  void unknownSectionNameOrPortIsNoMatchingParent() {
    GatewayModel model = Fixture.standard()
        .add(route("section", "parentRefs: [{name: gw, sectionName: https}]\nrules:\n- backendRefs: [" + POOL_A
            + "]\n"))
        .add(route("port", "parentRefs: [{name: gw, port: 9999}]\nrules:\n- backendRefs: [" + POOL_A + "]\n"))
        .compile();
    assertThat(check(onlyParent(model, "default/section"), "Accepted", false, "NoMatchingParent"))
        .contains("no listener named https");
    assertThat(check(onlyParent(model, "default/port"), "Accepted", false, "NoMatchingParent")).contains("9999");
    assertThat(model.match(8080, get("/"))).isNull();
  }

  @Test
  void routesOfOtherNamespacesNeedTheListenersPermission() {
    GatewayModel model = Fixture.standard().pool("team", "pool-a")
        .add(route("team", "r", 0, "rules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    assertThat(check(onlyParent(model, "team/r"), "Accepted", false, "NotAllowedByListeners")).contains("team");
  }

  @Test
  void selectorAdmitsOnlyMatchingNamespaces() {
    Fixture fixture = Fixture.noGateway().add(SELECTOR_GATEWAY)
        .namespace("team-a", Map.of("gateway-access", "true", "env", "dev"))
        .namespace("team-b", Map.of("gateway-access", "false"))
        .namespace("team-c", Map.of("gateway-access", "true", "env", "prod"))
        .pool("team-a", "pool-a");
    for (String ns : new String[] {"team-a", "team-b", "team-c", "infra"}) {
      fixture.add(route(ns, "r", 0, "parentRefs: [{name: gw, namespace: infra}]\nrules:\n- backendRefs: ["
          + POOL_A + "]\n"));
    }
    GatewayModel model = fixture.compile();
    check(onlyParent(model, "team-a/r"), "Accepted", true, "Accepted");
    check(onlyParent(model, "team-b/r"), "Accepted", false, "NotAllowedByListeners");
    check(onlyParent(model, "team-c/r"), "Accepted", false, "NotAllowedByListeners");
    check(onlyParent(model, "infra/r"), "Accepted", false, "NotAllowedByListeners");
    assertThat(model.match(8080, get("/")).route()).isEqualTo("team-a/r");
  }

  @Test
  void fromAllAdmitsEveryNamespace() {
    GatewayModel model = Fixture.noGateway().add(SELECTOR_GATEWAY.replace("from: Selector", "from: All"))
        .add(route("elsewhere", "r", 0, "parentRefs: [{name: gw, namespace: infra}]\nrules:\n- backendRefs: ["
            + POOL_A + "]\n")).compile();
    check(onlyParent(model, "elsewhere/r"), "Accepted", true, "Accepted");
  }

  @Test
  void disjointHostnamesAreNoMatchingListenerHostname() {
    GatewayModel model = Fixture.noGateway().add(Fixture.gateway("gw",
        "- {name: http, port: 8080, protocol: HTTP, hostname: \"*.example.com\"}\n")).add(route("r", "hostnames: [api.example.org]\nrules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    assertThat(check(onlyParent(model, "default/r"), "Accepted", false, "NoMatchingListenerHostname"))
        .contains("api.example.org");
  }

  @Test
  void unsupportedFiltersAreUnsupportedValueAndRouteNothing() {
    GatewayModel model = Fixture.standard().add(route("r", """
        rules:
        - filters:
          - type: RequestRedirect
            requestRedirect: {scheme: https}
          backendRefs: [%s]
        - backendRefs:
          - group: inference.networking.k8s.io
            kind: InferencePool
            name: pool-a
            filters: [{type: ResponseHeaderModifier, responseHeaderModifier: {remove: [server]}}]
        """.formatted(POOL_A))).compile();
    String message = check(onlyParent(model, "default/r"), "Accepted", false, "UnsupportedValue");
    assertThat(message).contains("RequestRedirect", "ResponseHeaderModifier", "spec.rules[0].filters[0]");
    assertThat(model.match(8080, get("/"))).isNull();
  }

  @Test
  void anInvalidRegularExpressionIsUnsupportedValue() {
    GatewayModel model = Fixture.standard().add(route("r", """
        rules:
        - matches: [{path: {type: RegularExpression, value: '/v1/(unclosed'}}]
          backendRefs: [%s]
        """.formatted(POOL_A))).compile();
    assertThat(check(onlyParent(model, "default/r"), "Accepted", false, "UnsupportedValue"))
        .contains("/v1/(unclosed");
  }

  @Test
  void aMissingPoolIsBackendNotFound() {
    GatewayModel model = Fixture.standard().add(route("r", """
        rules:
        - backendRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: nope}]
        """)).compile();
    JsonNode parent = onlyParent(model, "default/r");
    check(parent, "Accepted", true, "Accepted");
    assertThat(check(parent, "ResolvedRefs", false, "BackendNotFound")).contains("default/nope");
  }

  @Test
  void aServiceBackendIsInvalidKind() {
    GatewayModel model = Fixture.standard().service("default/vllm").add(route("r", """
        rules:
        - backendRefs: [{name: vllm, port: 8000}]
        """)).compile();
    assertThat(check(onlyParent(model, "default/r"), "ResolvedRefs", false, "InvalidKind"))
        .contains("Service", "only InferencePool");
    Backend backend = model.match(8080, get("/")).pick(0.5);
    assertThat(backend.pool()).isNull();
    assertThat(backend.invalidReason()).contains("only InferencePool");
  }

  @Test
  void aPoolInAnotherNamespaceNeedsAReferenceGrant() {
    String crossRoute = route("r", """
        rules:
        - backendRefs: [{group: inference.networking.k8s.io, kind: InferencePool, name: shared, namespace: models}]
        """);
    String wrongGrant = """
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: wrong, namespace: models}
        spec:
          from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: somebody-else}]
          to: [{group: inference.networking.k8s.io, kind: InferencePool}]
        """;
    GatewayModel refused = Fixture.standard().pool("models", "shared").add(crossRoute).add(wrongGrant).compile();
    assertThat(check(onlyParent(refused, "default/r"), "ResolvedRefs", false, "RefNotPermitted"))
        .contains("ReferenceGrant", "models");
    assertThat(refused.match(8080, get("/")).pick(0.1).pool()).isNull();

    GatewayModel granted = Fixture.standard().pool("models", "shared").add(crossRoute).add(wrongGrant).add("""
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: routes-from-default, namespace: models}
        spec:
          from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: default}]
          to: [{group: inference.networking.k8s.io, kind: InferencePool, name: shared}]
        """).compile();
    check(onlyParent(granted, "default/r"), "ResolvedRefs", true, "ResolvedRefs");
    assertThat(granted.match(8080, get("/")).pick(0.1).pool()).isEqualTo(new PoolKey("models", "shared"));
  }

  @Test
  void parentsThatAreNotOurGatewaysGetNoEntry() {
    GatewayModel model = Fixture.standard().add(route("r", """
        parentRefs:
        - {name: gw}
        - {name: absent}
        - {group: example.com, kind: Mesh, name: gw}
        rules:
        - backendRefs: [%s]
        """.formatted(POOL_A))).add(route("unrelated", "parentRefs: [{name: absent}]\nrules: []\n")).compile();
    assertThat(parents(model, "default/r")).hasSize(1);
    assertThat(parents(model, "default/unrelated")).as("present, empty: stale entries of ours go").isEmpty();
  }
}
