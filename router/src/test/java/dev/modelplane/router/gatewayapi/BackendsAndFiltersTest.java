package dev.modelplane.router.gatewayapi;

import static dev.modelplane.router.gatewayapi.Fixture.POOL_A;
import static dev.modelplane.router.gatewayapi.Fixture.POOL_B;
import static dev.modelplane.router.gatewayapi.Fixture.POOL_C;
import static dev.modelplane.router.gatewayapi.Fixture.get;
import static dev.modelplane.router.gatewayapi.Fixture.route;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.pool.PoolKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Weighted backend choice, unusable backends, header filters and URL rewrites. */
class BackendsAndFiltersTest {
  private static final PoolKey A = new PoolKey("default", "pool-a");
  private static final PoolKey B = new PoolKey("default", "pool-b");
  private static final PoolKey C = new PoolKey("default", "pool-c");

  private static RouteMatch only(String rules, HttpRequestView request) {
    GatewayModel model = Fixture.standard().add(route("r", rules)).compile();
    RouteMatch match = model.match(8080, request);
    assertThat(match).isNotNull();
    return match;
  }

  private static String withWeight(String ref, int weight) {
    return ref.replace("}", ", weight: " + weight + "}");
  }

  @Test
  void pickFollowsTheWeightsExactly() {
    RouteMatch match = only("rules:\n- backendRefs: [" + withWeight(POOL_A, 1) + ", " + withWeight(POOL_B, 3)
        + ", " + withWeight(POOL_C, 0) + "]\n", get("/"));
    Map<PoolKey, Integer> counts = new HashMap<>();
    int steps = 4000;
    for (int i = 0; i < steps; i++) {
      counts.merge(match.pick(i / (double) steps).pool(), 1, Integer::sum);
    }
    assertThat(counts).containsOnly(Map.entry(A, 1000), Map.entry(B, 3000));
    assertThat(match.pick(0.0).pool()).isEqualTo(A);
    assertThat(match.pick(Math.nextDown(1.0)).pool()).isEqualTo(B);
  }

  @Test
  void weightDefaultsToOne() {
    RouteMatch match = only("rules:\n- backendRefs: [" + POOL_A + ", " + POOL_B + "]\n", get("/"));
    assertThat(match.pick(0.49).pool()).isEqualTo(A);
    assertThat(match.pick(0.5).pool()).isEqualTo(B);
    assertThat(match.route()).isEqualTo("default/r");
    assertThat(match.ruleIndex()).isZero();
  }

  @Test
  void noBackendsOrOnlyZeroWeightsPickNothing() {
    assertThat(only("rules:\n- matches: [{path: {type: PathPrefix, value: /}}]\n", get("/")).pick(0.3)).isNull();
    assertThat(only("rules:\n- backendRefs: [" + withWeight(POOL_A, 0) + "]\n", get("/")).pick(0.3)).isNull();
  }

  @Test
  void unusableBackendsKeepTheirShare() {
    RouteMatch match = only("rules:\n- backendRefs: [" + POOL_A + ", "
        + "{group: inference.networking.k8s.io, kind: InferencePool, name: missing}]\n", get("/"));
    assertThat(match.pick(0.25).pool()).isEqualTo(A);
    Backend missing = match.pick(0.75);
    assertThat(missing.pool()).isNull();
    assertThat(missing.weight()).isEqualTo(1);
    assertThat(missing.invalidReason()).contains("InferencePool default/missing", "does not exist");
  }

  @Test
  void headerFiltersSetAddAndRemoveIgnoringCase() {
    RouteMatch match = only("""
        rules:
        - filters:
          - type: RequestHeaderModifier
            requestHeaderModifier:
              set: [{name: X-Tier, value: gold}]
              add: [{name: X-Trace, value: gw}, {name: X-New, value: "1"}]
              remove: [x-secret]
          backendRefs: [%s]
        """.formatted(POOL_A), get("/"));
    Map<String, List<String>> headers = new LinkedHashMap<>();
    headers.put("x-tier", new ArrayList<>(List.of("bronze", "silver")));
    headers.put("X-Trace", List.of("client"));
    headers.put("X-Secret", List.of("s3cr3t"));
    headers.put("accept", List.of("*/*"));
    match.applyHeaderFilters(match.pick(0.5), headers);
    assertThat(headers).containsOnly(
        Map.entry("x-tier", List.of("gold")),
        Map.entry("X-Trace", List.of("client,gw")),
        Map.entry("x-new", List.of("1")),
        Map.entry("accept", List.of("*/*")));
  }

  @Test
  void thePickedBackendsOwnFiltersApplyAfterTheRules() {
    RouteMatch match = only("""
        rules:
        - filters:
          - type: RequestHeaderModifier
            requestHeaderModifier: {set: [{name: x-pool, value: rule}]}
          backendRefs:
          - group: inference.networking.k8s.io
            kind: InferencePool
            name: pool-a
            filters:
            - type: RequestHeaderModifier
              requestHeaderModifier: {set: [{name: x-pool, value: a}]}
          - %s
        """.formatted(POOL_B), get("/"));
    Map<String, List<String>> toA = new HashMap<>();
    match.applyHeaderFilters(match.pick(0.1), toA);
    assertThat(toA).containsExactly(Map.entry("x-pool", List.of("a")));
    Map<String, List<String>> toB = new HashMap<>();
    match.applyHeaderFilters(match.pick(0.9), toB);
    assertThat(toB).containsExactly(Map.entry("x-pool", List.of("rule")));
  }

  @Test
  void replaceFullPath() {
    RouteMatch match = only("""
        rules:
        - matches: [{path: {type: PathPrefix, value: /openai}}]
          filters:
          - type: URLRewrite
            urlRewrite: {path: {type: ReplaceFullPath, replaceFullPath: /v1/chat/completions}}
          backendRefs: [%s]
        """.formatted(POOL_A), get("/openai/deployments/x"));
    assertThat(match.rewrittenPath("/openai/deployments/x")).isEqualTo("/v1/chat/completions");
    assertThat(match.rewrittenHost()).isNull();
  }

  @Test
  void replacePrefixMatchWithALongerPrefix() {
    RouteMatch match = only("""
        rules:
        - matches: [{path: {type: PathPrefix, value: /foo}}]
          filters:
          - type: URLRewrite
            urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /bar/baz}}
          backendRefs: [%s]
        """.formatted(POOL_A), get("/foo/x"));
    assertThat(match.rewrittenPath("/foo/x")).isEqualTo("/bar/baz/x");
    assertThat(match.rewrittenPath("/foo")).isEqualTo("/bar/baz");
    assertThat(match.rewrittenPath("/foo/")).isEqualTo("/bar/baz/");
  }

  @Test
  void replacePrefixMatchWithSlash() {
    RouteMatch match = only("""
        rules:
        - matches: [{path: {type: PathPrefix, value: /foo/}}]
          filters:
          - type: URLRewrite
            urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /}}
          backendRefs: [%s]
        """.formatted(POOL_A), get("/foo/x"));
    assertThat(match.rewrittenPath("/foo/x")).isEqualTo("/x");
    assertThat(match.rewrittenPath("/foo/x/y")).isEqualTo("/x/y");
    assertThat(match.rewrittenPath("/foo")).isEqualTo("/");
  }

  @Test
  void replacePrefixMatchOfTheRootPrefix() {
    RouteMatch match = only("""
        rules:
        - filters:
          - type: URLRewrite
            urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /api}}
          backendRefs: [%s]
        """.formatted(POOL_A), get("/v1/models"));
    assertThat(match.rewrittenPath("/v1/models")).isEqualTo("/api/v1/models");
  }

  @Test
  void hostnameRewriteAndNoRewrite() {
    RouteMatch rewriting = only("""
        rules:
        - filters:
          - type: URLRewrite
            urlRewrite: {hostname: internal.svc}
          backendRefs: [%s]
        """.formatted(POOL_A), get("/x"));
    assertThat(rewriting.rewrittenHost()).isEqualTo("internal.svc");
    assertThat(rewriting.rewrittenPath("/x")).isEqualTo("/x");
    RouteMatch plain = only("rules:\n- backendRefs: [" + POOL_A + "]\n", get("/x"));
    assertThat(plain.rewrittenHost()).isNull();
    assertThat(plain.rewrittenPath("/x")).isEqualTo("/x");
  }
}
