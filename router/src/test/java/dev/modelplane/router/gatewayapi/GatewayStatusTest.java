package dev.modelplane.router.gatewayapi;

import static dev.modelplane.router.gatewayapi.Conds.check;
import static dev.modelplane.router.gatewayapi.Conds.listener;
import static dev.modelplane.router.gatewayapi.Fixture.POOL_A;
import static dev.modelplane.router.gatewayapi.Fixture.get;
import static dev.modelplane.router.gatewayapi.Fixture.route;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** GatewayClass and Gateway statuses, listener validity and the ports served. */
class GatewayStatusTest {

  @Test
  void ourClassIsAcceptedAndAValidGatewayIsProgrammed() {
    GatewayModel model = Fixture.standard().compile();
    JsonNode gatewayClass = model.statuses().gatewayClasses().get("modelplane");
    check(gatewayClass, "Accepted", true, "Accepted");
    assertThat(Conds.get(gatewayClass, "Accepted").path("observedGeneration").asLong()).isEqualTo(2);

    JsonNode status = model.statuses().gateways().get("default/gw");
    check(status, "Accepted", true, "Accepted");
    check(status, "Programmed", true, "Programmed");
    assertThat(Conds.get(status, "Programmed").path("observedGeneration").asLong()).isEqualTo(3);
    JsonNode http = listener(status, "http");
    assertThat(http.path("supportedKinds").toString())
        .isEqualTo("[{\"group\":\"gateway.networking.k8s.io\",\"kind\":\"HTTPRoute\"}]");
    assertThat(http.path("attachedRoutes").asInt()).isZero();
    check(http, "Accepted", true, "Accepted");
    check(http, "Programmed", true, "Programmed");
    check(http, "ResolvedRefs", true, "ResolvedRefs");
    check(http, "Conflicted", false, "NoConflicts");
    assertThat(Conds.get(http, "Conflicted").path("observedGeneration").asLong()).isEqualTo(3);
    assertThat(status.has("addresses")).isFalse();
    assertThat(model.listenerPorts()).containsExactly(8080);
    assertThat(model.serves(8080)).isTrue();
  }

  @Test
  void aGatewayOfAnotherClassIsIgnoredEntirely() {
    GatewayModel model = Fixture.standard().add("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: other}
        spec: {controllerName: example.com/other-controller}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: foreign, namespace: default}
        spec:
          gatewayClassName: other
          listeners:
          - {name: http, port: 9090, protocol: HTTP}
        ---
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: classless, namespace: default}
        spec:
          gatewayClassName: does-not-exist
          listeners:
          - {name: http, port: 9191, protocol: HTTP}
        """).add(route("to-foreign", "parentRefs: [{name: foreign}, {name: classless}]\nrules:\n- backendRefs: ["
        + POOL_A + "]\n")).compile();
    assertThat(model.statuses().gatewayClasses()).containsOnlyKeys("modelplane");
    assertThat(model.statuses().gateways()).containsOnlyKeys("default/gw");
    assertThat(model.statuses().httpRouteParents().get("default/to-foreign")).isEmpty();
    assertThat(model.statuses().poolParents().values()).allSatisfy(entries -> assertThat(entries).isEmpty());
    assertThat(model.listenerPorts()).containsExactly(8080);
    assertThat(model.match(9090, get("/"))).isNull();
  }

  @Test
  void unsupportedProtocolsAreRefusedListenerByListener() {
    GatewayModel model = Fixture.noGateway().add(Fixture.gateway("gw", """
        - {name: http, port: 8080, protocol: HTTP}
        - {name: https, port: 8443, protocol: HTTPS, hostname: a.example.com}
        - {name: tcp, port: 9000, protocol: TCP}
        """)).compile();
    JsonNode status = model.statuses().gateways().get("default/gw");
    check(status, "Accepted", true, "ListenersNotValid");
    check(status, "Programmed", true, "Programmed");
    for (String name : new String[] {"https", "tcp"}) {
      assertThat(check(listener(status, name), "Accepted", false, "UnsupportedProtocol")).contains("HTTP");
      check(listener(status, name), "Programmed", false, "Invalid");
    }
    assertThat(model.listenerPorts()).containsExactly(8080);
  }

  @Test
  void aGatewayWithoutValidListenersIsNotAccepted() {
    GatewayModel model = Fixture.noGateway().add(Fixture.gateway("gw", "- {name: udp, port: 53, protocol: UDP}\n"))
        .compile();
    JsonNode status = model.statuses().gateways().get("default/gw");
    check(status, "Accepted", false, "ListenersNotValid");
    check(status, "Programmed", false, "Invalid");
    assertThat(model.listenerPorts()).isEmpty();
  }

  @Test
  void listenersWithTheSamePortAndHostnameConflict() {
    GatewayModel model = Fixture.noGateway().add(Fixture.gateway("gw", """
        - {name: one, port: 8080, protocol: HTTP}
        - {name: two, port: 8080, protocol: HTTP}
        - {name: named, port: 8080, protocol: HTTP, hostname: a.example.com}
        - {name: low, port: 80, protocol: HTTP}
        """)).compile();
    JsonNode status = model.statuses().gateways().get("default/gw");
    for (String name : new String[] {"one", "two"}) {
      check(listener(status, name), "Conflicted", true, "HostnameConflict");
      check(listener(status, name), "Accepted", false, "HostnameConflict");
      check(listener(status, name), "Programmed", false, "Invalid");
    }
    check(listener(status, "named"), "Conflicted", false, "NoConflicts");
    check(listener(status, "named"), "Programmed", true, "Programmed");
    check(listener(status, "low"), "Programmed", true, "Programmed");
    assertThat(model.listenerPorts()).containsExactly(80, 8080);
  }

  @Test
  void routeKindsOtherThanHttpRouteAreInvalid() {
    GatewayModel model = Fixture.noGateway().add(Fixture.gateway("gw", """
        - name: grpc-only
          port: 8080
          protocol: HTTP
          allowedRoutes: {kinds: [{kind: GRPCRoute}]}
        - name: mixed
          port: 8081
          protocol: HTTP
          allowedRoutes: {kinds: [{kind: HTTPRoute}, {group: gateway.networking.k8s.io, kind: TCPRoute}]}
        """)).compile();
    JsonNode status = model.statuses().gateways().get("default/gw");
    JsonNode grpcOnly = listener(status, "grpc-only");
    assertThat(check(grpcOnly, "ResolvedRefs", false, "InvalidRouteKinds")).contains("GRPCRoute");
    assertThat(grpcOnly.path("supportedKinds")).isEmpty();
    check(grpcOnly, "Programmed", false, "Invalid");
    JsonNode mixed = listener(status, "mixed");
    assertThat(check(mixed, "ResolvedRefs", false, "InvalidRouteKinds")).contains("TCPRoute");
    assertThat(mixed.path("supportedKinds").toString())
        .isEqualTo("[{\"group\":\"gateway.networking.k8s.io\",\"kind\":\"HTTPRoute\"}]");
    check(mixed, "Programmed", true, "Programmed");
    assertThat(model.listenerPorts()).containsExactly(8081);
  }

  @Test
  void addressesAreNotSupported() {
    GatewayModel model = Fixture.noGateway().add("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: gw, namespace: default}
        spec:
          gatewayClassName: modelplane
          addresses: [{type: IPAddress, value: 10.0.0.1}]
          listeners:
          - {name: http, port: 8080, protocol: HTTP}
        """).add(route("r", "rules:\n- backendRefs: [" + POOL_A + "]\n")).compile();
    JsonNode status = model.statuses().gateways().get("default/gw");
    assertThat(check(status, "Accepted", false, "UnsupportedAddress")).contains("spec.addresses");
    check(status, "Programmed", false, "Invalid");
    check(listener(status, "http"), "Programmed", false, "Invalid");
    assertThat(model.listenerPorts()).isEmpty();
    check(model.statuses().httpRouteParents().get("default/r").get(0), "Accepted", false, "NotAllowedByListeners");
  }

  @Test
  void attachedRoutesCountsAcceptedRoutesPerListener() {
    GatewayModel model = Fixture.noGateway().add(Fixture.gateway("gw", """
        - {name: a, port: 8080, protocol: HTTP}
        - {name: b, port: 8081, protocol: HTTP, hostname: x.example.com}
        """))
        .add(route("both", "rules:\n- backendRefs: [" + POOL_A + "]\n"))
        .add(route("only-b", "parentRefs: [{name: gw, sectionName: b}]\nrules:\n- backendRefs: [" + POOL_A + "]\n"))
        .add(route("only-a-by-host", "hostnames: [y.example.com]\nrules:\n- backendRefs: [" + POOL_A + "]\n"))
        .add(route("twice-on-a", "parentRefs: [{name: gw, sectionName: a}, {name: gw, port: 8080}]\nrules:\n"
            + "- backendRefs: [" + POOL_A + "]\n"))
        .add(route("refused", """
            rules:
            - filters: [{type: RequestMirror, requestMirror: {backendRef: {name: x}}}]
              backendRefs: [%s]
            """.formatted(POOL_A)))
        .compile();
    JsonNode status = model.statuses().gateways().get("default/gw");
    assertThat(listener(status, "a").path("attachedRoutes").asInt()).isEqualTo(3);
    assertThat(listener(status, "b").path("attachedRoutes").asInt()).isEqualTo(2);
    assertThat(model.listenerPorts()).containsExactly(8080, 8081);
  }
}
