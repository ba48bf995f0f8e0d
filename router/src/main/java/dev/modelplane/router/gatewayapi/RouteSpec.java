package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An HTTPRoute as the compiler uses it.
 *
 * @param tree the whole object
 * @param key {@code namespace/name}
 * @param namespace the route's namespace, the default for its references
 * @param created its creation time (older routes win ties)
 * @param generation {@code metadata.generation}, observed by its conditions
 * @param hostnames {@code spec.hostnames}; empty means every host
 * @param parentRefs {@code spec.parentRefs} as written
 * @param rules the parsed rules
 * @param problems what the route asks for that modelplane does not support; the route is not accepted while any
 */
record RouteSpec(JsonNode tree, String key, String namespace, Instant created, long generation,
    List<String> hostnames, List<JsonNode> parentRefs, List<RuleSpec> rules, List<String> problems) {

  /**
   * One rule.
   *
   * @param index position in {@code spec.rules}
   * @param matches its matches (the default prefix {@code /} when none are written)
   * @param headerFilters its {@code RequestHeaderModifier} filters
   * @param rewrite its {@code URLRewrite} filter, or null
   * @param backendRefs its backends
   */
  record RuleSpec(int index, List<MatchSpec> matches, List<HeaderModifier> headerFilters, UrlRewrite rewrite,
      List<BackendRef> backendRefs) {}

  /**
   * One {@code backendRef}, with the schema's defaults applied.
   *
   * @param group API group; the core group is the empty string
   * @param kind kind, {@code Service} by default
   * @param namespace namespace, the route's by default
   * @param name name
   * @param weight relative weight, 1 by default
   * @param filters the backend's own {@code RequestHeaderModifier} filters
   */
  record BackendRef(String group, String kind, String namespace, String name, int weight,
      List<HeaderModifier> filters) {
    String describe() {
      return kind + " " + namespace + "/" + name;
    }
  }

  static RouteSpec parse(JsonNode tree) {
    String namespace = Json.namespace(tree);
    JsonNode spec = tree.path("spec");
    List<String> problems = new ArrayList<>();
    List<String> hostnames = new ArrayList<>();
    Json.list(spec, "hostnames").forEach(h -> hostnames.add(h.asText()));
    List<RuleSpec> rules = new ArrayList<>();
    List<JsonNode> ruleNodes = Json.list(spec, "rules");
    for (int i = 0; i < ruleNodes.size(); i++) {
      rules.add(parseRule(ruleNodes.get(i), i, namespace, problems));
    }
    return new RouteSpec(tree, Json.key(tree), namespace, Json.created(tree), Json.generation(tree),
        List.copyOf(hostnames), Json.list(spec, "parentRefs"), List.copyOf(rules), List.copyOf(problems));
  }

  private static RuleSpec parseRule(JsonNode rule, int index, String namespace, List<String> problems) {
    String where = "spec.rules[" + index + "]";
    List<MatchSpec> matches = new ArrayList<>();
    List<JsonNode> matchNodes = Json.list(rule, "matches");
    for (int m = 0; m < matchNodes.size(); m++) {
      MatchSpec match = MatchSpec.parse(matchNodes.get(m), where + ".matches[" + m + "]", problems);
      if (match != null) {
        matches.add(match);
      }
    }
    if (matchNodes.isEmpty()) {
      matches.add(MatchSpec.DEFAULT);
    }
    List<HeaderModifier> headerFilters = new ArrayList<>();
    UrlRewrite rewrite = null;
    List<JsonNode> filters = Json.list(rule, "filters");
    for (int f = 0; f < filters.size(); f++) {
      JsonNode filter = filters.get(f);
      String at = where + ".filters[" + f + "]";
      String type = Json.text(filter, "type", "");
      switch (type) {
        case "RequestHeaderModifier" -> headerFilters.add(HeaderModifier.parse(filter.path("requestHeaderModifier")));
        case "URLRewrite" -> rewrite = UrlRewrite.parse(filter.path("urlRewrite"), at, problems);
        default -> problems.add(unsupportedFilter(at, type, "RequestHeaderModifier and URLRewrite"));
      }
    }
    List<BackendRef> backends = new ArrayList<>();
    List<JsonNode> refs = Json.list(rule, "backendRefs");
    for (int b = 0; b < refs.size(); b++) {
      backends.add(parseBackend(refs.get(b), where + ".backendRefs[" + b + "]", namespace, problems));
    }
    return new RuleSpec(index, List.copyOf(matches), List.copyOf(headerFilters), rewrite, List.copyOf(backends));
  }

  private static BackendRef parseBackend(JsonNode ref, String where, String namespace, List<String> problems) {
    List<HeaderModifier> filters = new ArrayList<>();
    List<JsonNode> filterNodes = Json.list(ref, "filters");
    for (int f = 0; f < filterNodes.size(); f++) {
      String type = Json.text(filterNodes.get(f), "type", "");
      if ("RequestHeaderModifier".equals(type)) {
        filters.add(HeaderModifier.parse(filterNodes.get(f).path("requestHeaderModifier")));
      } else {
        problems.add(unsupportedFilter(where + ".filters[" + f + "]", type, "RequestHeaderModifier"));
      }
    }
    JsonNode weight = ref.get("weight");
    return new BackendRef(Json.textKeepEmpty(ref, "group", ""), Json.text(ref, "kind", "Service"),
        Json.text(ref, "namespace", namespace), Json.text(ref, "name", ""),
        weight == null || weight.isNull() ? 1 : Math.max(0, weight.asInt(1)), List.copyOf(filters));
  }

  private static String unsupportedFilter(String where, String type, String supported) {
    return where + " is a " + (type.isEmpty() ? "filter without type" : type + " filter")
        + ", which modelplane's gateway does not support there (supported: " + supported + ")";
  }
}
