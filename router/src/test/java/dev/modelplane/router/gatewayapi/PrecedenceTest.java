package dev.modelplane.router.gatewayapi;

import static dev.modelplane.router.gatewayapi.Fixture.POOL_A;
import static dev.modelplane.router.gatewayapi.Fixture.get;
import static dev.modelplane.router.gatewayapi.Fixture.request;
import static dev.modelplane.router.gatewayapi.Fixture.route;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which rule wins when several match: the Gateway API's precedence order, hostnames first. */
class PrecedenceTest {

  /** A route with one rule of one match (YAML flow mapping), created at the given second. */
  private static String oneMatch(String name, int created, String match) {
    return route(name, created, """
        rules:
        - matches: [%s]
          backendRefs: [%s]
        """.formatted(match, POOL_A));
  }

  private static String winner(Fixture fixture, HttpRequestView request) {
    RouteMatch match = fixture.compile().match(8080, request);
    return match == null ? null : match.route();
  }

  @Test
  void exactPathBeatsPrefixEvenWithAMethod() {
    Fixture f = Fixture.standard()
        .add(oneMatch("prefix", 1, "{method: GET, path: {type: PathPrefix, value: /v1/chat}}"))
        .add(oneMatch("exact", 2, "{path: {type: Exact, value: /v1/chat}}"));
    assertThat(winner(f, get("/v1/chat"))).isEqualTo("default/exact");
    assertThat(winner(f, get("/v1/chat/x"))).isEqualTo("default/prefix");
  }

  @Test
  void prefixBeatsRegularExpression() {
    Fixture f = Fixture.standard()
        .add(oneMatch("regex", 1, "{path: {type: RegularExpression, value: '/v1/.*'}}"))
        .add(oneMatch("prefix", 2, "{path: {type: PathPrefix, value: /v1}}"));
    assertThat(winner(f, get("/v1/models"))).isEqualTo("default/prefix");
  }

  @Test
  void longerPrefixWins() {
    Fixture f = Fixture.standard()
        .add(oneMatch("short", 1, "{path: {type: PathPrefix, value: /v1}}"))
        .add(oneMatch("long", 2, "{path: {type: PathPrefix, value: /v1/chat}}"));
    assertThat(winner(f, get("/v1/chat/completions"))).isEqualTo("default/long");
    assertThat(winner(f, get("/v1/completions"))).isEqualTo("default/short");
  }

  @Test
  void methodMatchWinsOverNone() {
    Fixture f = Fixture.standard()
        .add(oneMatch("any", 1, "{path: {type: PathPrefix, value: /v1}}"))
        .add(oneMatch("post", 2, "{method: POST, path: {type: PathPrefix, value: /v1}}"));
    assertThat(winner(f, request("POST", "", "/v1/x", "", Map.of()))).isEqualTo("default/post");
    assertThat(winner(f, request("GET", "", "/v1/x", "", Map.of()))).isEqualTo("default/any");
  }

  @Test
  void moreHeaderMatchesWin() {
    Fixture f = Fixture.standard()
        .add(oneMatch("one", 1, "{headers: [{name: a, value: '1'}]}"))
        .add(oneMatch("two", 2, "{headers: [{name: a, value: '1'}, {name: b, value: '2'}]}"));
    assertThat(winner(f, request("GET", "", "/", "", Map.of("a", "1", "b", "2")))).isEqualTo("default/two");
    assertThat(winner(f, request("GET", "", "/", "", Map.of("a", "1")))).isEqualTo("default/one");
  }

  @Test
  void headersOutrankQueryParams() {
    Fixture f = Fixture.standard()
        .add(oneMatch("query", 1, "{queryParams: [{name: q, value: '1'}, {name: r, value: '2'}]}"))
        .add(oneMatch("header", 2, "{headers: [{name: a, value: '1'}]}"));
    assertThat(winner(f, request("GET", "", "/", "q=1&r=2", Map.of("a", "1")))).isEqualTo("default/header");
  }

  @Test
  void moreQueryParamMatchesWin() {
    Fixture f = Fixture.standard()
        .add(oneMatch("one", 1, "{queryParams: [{name: q, value: '1'}]}"))
        .add(oneMatch("two", 2, "{queryParams: [{name: q, value: '1'}, {name: r, value: '2'}]}"));
    assertThat(winner(f, request("GET", "", "/", "q=1&r=2", Map.of()))).isEqualTo("default/two");
    assertThat(winner(f, request("GET", "", "/", "q=1", Map.of()))).isEqualTo("default/one");
  }

  @Test
  void olderRouteWinsATie() {
    Fixture f = Fixture.standard()
        .add(oneMatch("a-newer", 9, "{path: {type: PathPrefix, value: /v1}}"))
        .add(oneMatch("z-older", 1, "{path: {type: PathPrefix, value: /v1}}"));
    assertThat(winner(f, get("/v1/x"))).isEqualTo("default/z-older");
  }

  @Test
  void sameAgeFallsBackToNamespaceAndName() {
    Fixture f = Fixture.standard()
        .add(oneMatch("b", 1, "{path: {type: PathPrefix, value: /v1}}"))
        .add(oneMatch("a", 1, "{path: {type: PathPrefix, value: /v1}}"));
    assertThat(winner(f, get("/v1/x"))).isEqualTo("default/a");
  }

  @Test
  void earlierRuleWinsWithinARoute() {
    GatewayModel model = Fixture.standard().add(route("r", """
        rules:
        - matches: [{path: {type: PathPrefix, value: /other}}]
        - matches: [{path: {type: PathPrefix, value: /v1}}]
          backendRefs: [%s]
        - matches: [{path: {type: PathPrefix, value: /v1}}]
        """.formatted(POOL_A))).compile();
    assertThat(model.match(8080, get("/v1/x")).ruleIndex()).isEqualTo(1);
  }

  @Test
  void exactHostnameBeatsWildcardBeforePathPrecedence() {
    Fixture f = Fixture.standard()
        .add(route("wild", 1, """
            hostnames: ["*.example.com"]
            rules:
            - matches: [{path: {type: Exact, value: /v1/chat}}]
              backendRefs: [%s]
            """.formatted(POOL_A)))
        .add(route("exact", 2, """
            hostnames: [api.example.com]
            rules:
            - backendRefs: [%s]
            """.formatted(POOL_A)));
    assertThat(winner(f, get("api.example.com", "/v1/chat"))).isEqualTo("default/exact");
    assertThat(winner(f, get("web.example.com", "/v1/chat"))).isEqualTo("default/wild");
    assertThat(winner(f, get("", "/v1/chat"))).as("without Host only precedence counts").isEqualTo("default/wild");
  }

  @Test
  void theMostSpecificListenerTakesTheRequest() {
    Fixture f = Fixture.noGateway().add(Fixture.gateway("gw", """
        - {name: wild, port: 8080, protocol: HTTP, hostname: "*.example.com"}
        - {name: exact, port: 8080, protocol: HTTP, hostname: api.example.com}
        """))
        .add(route("on-wild", 1, """
            parentRefs: [{name: gw, sectionName: wild}]
            rules:
            - matches: [{path: {type: Exact, value: /v1/chat}}]
              backendRefs: [%s]
            """.formatted(POOL_A)))
        .add(route("on-exact", 2, """
            parentRefs: [{name: gw, sectionName: exact}]
            rules:
            - matches: [{path: {type: PathPrefix, value: /v1}}]
              backendRefs: [%s]
            """.formatted(POOL_A)));
    assertThat(winner(f, get("api.example.com", "/v1/chat"))).isEqualTo("default/on-exact");
    assertThat(winner(f, get("api.example.com", "/other"))).as("the exact listener has no such route").isNull();
    assertThat(winner(f, get("web.example.com", "/v1/chat"))).isEqualTo("default/on-wild");
    assertThat(winner(f, get("example.org", "/v1/chat"))).as("no listener takes this host").isNull();
  }

  @Test
  void routesOfGatewaysSharingAPortMerge() {
    Fixture f = Fixture.standard().add(Fixture.gateway("gw2", "- {name: http, port: 8080, protocol: HTTP}\n"))
        .add(route("on-gw", 1, "rules:\n- matches: [{path: {type: PathPrefix, value: /a}}]\n  backendRefs: ["
            + POOL_A + "]\n"))
        .add(route("on-gw2", 1, "parentRefs: [{name: gw2}]\nrules:\n- matches: [{path: {type: PathPrefix, "
            + "value: /b}}]\n  backendRefs: [" + POOL_A + "]\n"));
    assertThat(winner(f, get("/a"))).isEqualTo("default/on-gw");
    assertThat(winner(f, get("/b"))).isEqualTo("default/on-gw2");
    assertThat(f.compile().listenerPorts()).containsExactly(8080);
  }
}
