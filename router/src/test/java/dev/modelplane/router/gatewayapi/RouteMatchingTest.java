package dev.modelplane.router.gatewayapi;

import static dev.modelplane.router.gatewayapi.Fixture.POOL_A;
import static dev.modelplane.router.gatewayapi.Fixture.get;
import static dev.modelplane.router.gatewayapi.Fixture.request;
import static dev.modelplane.router.gatewayapi.Fixture.route;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Each kind of match condition on its own. */
class RouteMatchingTest {

  private static GatewayModel oneRule(String matches) {
    return Fixture.standard().add(route("r", """
        rules:
        - matches:
        %s  backendRefs: [%s]
        """.formatted(matches.indent(2), POOL_A))).compile();
  }

  private static boolean hits(GatewayModel model, HttpRequestView request) {
    return model.match(8080, request) != null;
  }

  @Test
  void exactPathMatchesOnlyThatPath() {
    GatewayModel model = oneRule("- path: {type: Exact, value: /v1/chat/completions}");
    assertThat(hits(model, get("/v1/chat/completions"))).isTrue();
    assertThat(hits(model, get("/v1/chat/completions/"))).isFalse();
    assertThat(hits(model, get("/v1/chat"))).isFalse();
  }

  @Test
  void pathPrefixMatchesWholeSegments() {
    GatewayModel model = oneRule("- path: {type: PathPrefix, value: /foo}");
    assertThat(hits(model, get("/foo"))).isTrue();
    assertThat(hits(model, get("/foo/"))).isTrue();
    assertThat(hits(model, get("/foo/bar"))).isTrue();
    assertThat(hits(model, get("/foobar"))).isFalse();
    assertThat(hits(model, get("/"))).isFalse();
  }

  @Test
  void pathPrefixWithTrailingSlashStillMatchesSegments() {
    GatewayModel model = oneRule("- path: {type: PathPrefix, value: /foo/}");
    assertThat(hits(model, get("/foo/bar"))).isTrue();
    assertThat(hits(model, get("/foo/"))).isTrue();
    assertThat(hits(model, get("/foobar"))).isFalse();
  }

  @Test
  void regularExpressionMustMatchTheWholePath() {
    GatewayModel model = oneRule("- path: {type: RegularExpression, value: '/v[0-9]+/models'}");
    assertThat(hits(model, get("/v1/models"))).isTrue();
    assertThat(hits(model, get("/v12/models"))).isTrue();
    assertThat(hits(model, get("/v1/models/x"))).isFalse();
    assertThat(hits(model, get("/x/v1/models"))).isFalse();
  }

  @Test
  void ruleWithoutMatchesAndMatchWithoutPathTakeEveryPath() {
    GatewayModel noMatches = Fixture.standard().add(route("r", """
        rules:
        - backendRefs: [%s]
        """.formatted(POOL_A))).compile();
    assertThat(hits(noMatches, get("/anything/at/all"))).isTrue();
    GatewayModel methodOnly = oneRule("- method: POST");
    assertThat(hits(methodOnly, request("POST", "", "/x/y", "", Map.of()))).isTrue();
  }

  @Test
  void headerExactMatchIgnoresNameCaseButNotValueCase() {
    GatewayModel model = oneRule("""
        - headers:
          - {name: X-Model-Tier, value: Premium}
        """);
    assertThat(hits(model, request("GET", "", "/", "", Map.of("x-model-tier", "Premium")))).isTrue();
    assertThat(hits(model, request("GET", "", "/", "", Map.of("x-model-tier", "premium")))).isFalse();
    assertThat(hits(model, get("/"))).isFalse();
  }

  @Test
  void headerRegularExpressionMatch() {
    GatewayModel model = oneRule("""
        - headers:
          - {name: x-user, type: RegularExpression, value: 'team-[a-z]+'}
        """);
    assertThat(hits(model, request("GET", "", "/", "", Map.of("x-user", "team-red")))).isTrue();
    assertThat(hits(model, request("GET", "", "/", "", Map.of("x-user", "team-42")))).isFalse();
  }

  @Test
  void everyHeaderOfAMatchMustHold() {
    GatewayModel model = oneRule("""
        - headers:
          - {name: a, value: "1"}
          - {name: b, value: "2"}
        """);
    assertThat(hits(model, request("GET", "", "/", "", Map.of("a", "1", "b", "2")))).isTrue();
    assertThat(hits(model, request("GET", "", "/", "", Map.of("a", "1")))).isFalse();
  }

  @Test
  void queryParamExactAndRegularExpression() {
    GatewayModel model = oneRule("""
        - queryParams:
          - {name: api-version, value: "2024-06-01"}
          - {name: stream, type: RegularExpression, value: 'true|1'}
        """);
    assertThat(hits(model, request("GET", "", "/", "api-version=2024-06-01&stream=1", Map.of()))).isTrue();
    assertThat(hits(model, request("GET", "", "/", "stream=true&api-version=2024%2D06%2D01", Map.of()))).isTrue();
    assertThat(hits(model, request("GET", "", "/", "api-version=2024-06-01&stream=no", Map.of()))).isFalse();
    assertThat(hits(model, request("GET", "", "/", "API-VERSION=2024-06-01&stream=1", Map.of()))).isFalse();
    assertThat(hits(model, request("GET", "", "/", "", Map.of()))).isFalse();
  }

  @Test
  void methodMatch() {
    GatewayModel model = oneRule("- {method: POST, path: {type: PathPrefix, value: /v1}}");
    assertThat(hits(model, request("POST", "", "/v1/completions", "", Map.of()))).isTrue();
    assertThat(hits(model, request("GET", "", "/v1/completions", "", Map.of()))).isFalse();
  }

  @Test
  void matchesOfARuleAreAlternatives() {
    GatewayModel model = oneRule("""
        - path: {type: Exact, value: /a}
        - path: {type: Exact, value: /b}
        """);
    assertThat(hits(model, get("/a"))).isTrue();
    assertThat(hits(model, get("/b"))).isTrue();
    assertThat(hits(model, get("/c"))).isFalse();
  }

  @Test
  void otherPortsAndTheEmptyModelMatchNothing() {
    GatewayModel model = oneRule("- path: {type: PathPrefix, value: /}");
    assertThat(model.match(9090, get("/"))).isNull();
    assertThat(GatewayModel.empty().match(8080, get("/"))).isNull();
    assertThat(GatewayModel.empty().listenerPorts()).isEmpty();
    assertThat(GatewayModel.empty().serves(8080)).isFalse();
  }

  @Test
  void routeHostnamesMustAdmitTheHost() {
    GatewayModel model = Fixture.standard().add(route("r", """
        hostnames: [llm.example.com, "*.models.example.com"]
        rules:
        - backendRefs: [%s]
        """.formatted(POOL_A))).compile();
    assertThat(hits(model, get("llm.example.com", "/"))).isTrue();
    assertThat(hits(model, get("LLM.Example.com", "/"))).isTrue();
    assertThat(hits(model, get("a.models.example.com", "/"))).isTrue();
    assertThat(hits(model, get("a.b.models.example.com", "/"))).isTrue();
    assertThat(hits(model, get("models.example.com", "/"))).isFalse();
    assertThat(hits(model, get("other.example.com", "/"))).isFalse();
    assertThat(hits(model, get("", "/"))).as("no Host: hostnames are not considered").isTrue();
  }
}
