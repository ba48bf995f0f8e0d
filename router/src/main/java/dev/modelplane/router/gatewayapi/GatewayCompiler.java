package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.PoolKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Compiles {@link GatewayInputs} into a {@link GatewayModel}: decides which GatewayClasses and Gateways are ours,
 * attaches HTTPRoutes to their listeners, builds each port's route table and every status we are responsible for.
 */
final class GatewayCompiler {
  private final GatewayInputs in;
  private final Map<String, GatewaySpec> gateways = new TreeMap<>();
  private final Map<String, Map<String, Set<String>>> attached = new HashMap<>();
  private final Map<Integer, List<RouteTable.Candidate>> candidates = new TreeMap<>();
  private final Map<PoolKey, Map<String, Boolean>> poolGateways = new HashMap<>();
  private final BackendResolver resolver;

  private GatewayCompiler(GatewayInputs in) {
    this.in = in;
    this.resolver = new BackendResolver(trees(in.referenceGrants()), in.pools() == null ? Map.of() : in.pools());
  }

  static GatewayModel compile(GatewayInputs in) {
    return new GatewayCompiler(in).run();
  }

  private static List<JsonNode> trees(List<GenericKubernetesResource> resources) {
    List<JsonNode> out = new ArrayList<>();
    if (resources != null) {
      resources.forEach(r -> out.add(Json.tree(r)));
    }
    return out;
  }

  private GatewayModel run() {
    Map<String, ObjectNode> classStatuses = new TreeMap<>();
    for (JsonNode gatewayClass : trees(in.gatewayClasses())) {
      if (in.controllerName().equals(Json.text(gatewayClass.path("spec"), "controllerName", null))) {
        classStatuses.put(Json.name(gatewayClass), GatewayStatusBuilder.gatewayClass(gatewayClass,
            in.controllerName()));
      }
    }
    for (JsonNode gateway : trees(in.gateways())) {
      if (classStatuses.containsKey(Json.text(gateway.path("spec"), "gatewayClassName", ""))) {
        GatewaySpec spec = GatewaySpec.parse(gateway);
        gateways.put(spec.key(), spec);
      }
    }
    Map<String, List<ObjectNode>> routeParents = new TreeMap<>();
    for (JsonNode route : trees(in.httpRoutes())) {
      RouteSpec spec = RouteSpec.parse(route);
      routeParents.put(spec.key(), attachRoute(spec));
    }
    Map<String, ObjectNode> gatewayStatuses = new TreeMap<>();
    PortHostnames ports = new PortHostnames();
    for (GatewaySpec gateway : gateways.values()) {
      Map<String, Integer> counts = new HashMap<>();
      attached.getOrDefault(gateway.key(), Map.of()).forEach((listener, routes) -> counts.put(listener,
          routes.size()));
      gatewayStatuses.put(gateway.key(), GatewayStatusBuilder.gateway(gateway, counts));
      for (GatewaySpec.Listener listener : gateway.listeners()) {
        if (gateway.programmed(listener)) {
          ports.add(listener.port(), listener.hostname());
        }
      }
    }
    Map<Integer, RouteTable> tables = new TreeMap<>();
    ports.hostnames.forEach((port, hostnames) -> tables.put(port,
        new RouteTable(new ArrayList<>(hostnames), candidates.getOrDefault(port, List.of()))));
    Map<PoolKey, List<ObjectNode>> poolStatuses = new LinkedHashMap<>();
    if (in.pools() != null) {
      in.pools().forEach((key, pool) -> poolStatuses.put(key, PoolStatusBuilder.entries(key, pool,
          poolGateways.getOrDefault(key, Map.of()), in.services() == null ? Set.of() : in.services(),
          in.controllerName())));
    }
    return new GatewayModel(new TreeSet<>(tables.keySet()), tables,
        new GatewayStatuses(Collections.unmodifiableMap(classStatuses), Collections.unmodifiableMap(gatewayStatuses),
            Collections.unmodifiableMap(routeParents), Collections.unmodifiableMap(poolStatuses)));
  }

  /** Ports with the hostnames of the listeners served on them (null: a listener without hostname). */
  private static final class PortHostnames {
    final Map<Integer, Set<String>> hostnames = new TreeMap<>();

    void add(int port, String hostname) {
      hostnames.computeIfAbsent(port, p -> new LinkedHashSet<>()).add(hostname);
    }
  }

  /** Attaches the route to each Gateway of ours it names and returns our parent status entries. */
  private List<ObjectNode> attachRoute(RouteSpec route) {
    List<ObjectNode> entries = new ArrayList<>();
    List<List<BackendResolver.Resolution>> resolutions = new ArrayList<>();
    for (RouteSpec.RuleSpec rule : route.rules()) {
      List<BackendResolver.Resolution> ruleResolutions = new ArrayList<>();
      rule.backendRefs().forEach(ref -> ruleResolutions.add(resolver.resolve(ref, route.namespace())));
      resolutions.add(ruleResolutions);
    }
    List<RouteMatch> results = null;
    for (JsonNode parentRef : route.parentRefs()) {
      if (!GatewaySpec.GROUP.equals(Json.textKeepEmpty(parentRef, "group", GatewaySpec.GROUP))
          || !"Gateway".equals(Json.text(parentRef, "kind", "Gateway"))) {
        continue;
      }
      String gatewayKey = Json.text(parentRef, "namespace", route.namespace()) + "/"
          + Json.text(parentRef, "name", "");
      GatewaySpec gateway = gateways.get(gatewayKey);
      if (gateway == null) {
        continue;
      }
      RouteAttachment attachment = RouteAttachment.attach(route, parentRef, gateway, in.namespaceLabels() == null
          ? Map.of() : in.namespaceLabels());
      ObjectNode entry = Json.object();
      entry.set("parentRef", parentRef.deepCopy());
      entry.put("controllerName", in.controllerName());
      entry.putArray("conditions").add(attachment.condition(route.generation()))
          .add(resolvedRefs(resolutions, route.generation()));
      entries.add(entry);
      for (List<BackendResolver.Resolution> rule : resolutions) {
        for (BackendResolver.Resolution resolution : rule) {
          if (resolution.ok()) {
            poolGateways.computeIfAbsent(resolution.backend().pool(), k -> new TreeMap<>())
                .merge(gatewayKey, attachment.accepted(), Boolean::logicalOr);
          }
        }
      }
      if (!attachment.accepted()) {
        continue;
      }
      if (results == null) {
        results = routeMatches(route, resolutions);
      }
      for (RouteAttachment.Attached listener : attachment.listeners()) {
        attached.computeIfAbsent(gatewayKey, k -> new HashMap<>())
            .computeIfAbsent(listener.listener().name(), k -> new LinkedHashSet<>()).add(route.key());
        addCandidates(route, results, listener);
      }
    }
    return entries;
  }

  /** One RouteMatch per (rule, match), in rule order then match order. */
  private static List<RouteMatch> routeMatches(RouteSpec route, List<List<BackendResolver.Resolution>> resolutions) {
    List<RouteMatch> out = new ArrayList<>();
    for (RouteSpec.RuleSpec rule : route.rules()) {
      List<Backend> backends = new ArrayList<>();
      List<List<HeaderModifier>> backendFilters = new ArrayList<>();
      for (int b = 0; b < rule.backendRefs().size(); b++) {
        backends.add(resolutions.get(rule.index()).get(b).backend());
        backendFilters.add(rule.backendRefs().get(b).filters());
      }
      for (MatchSpec match : rule.matches()) {
        out.add(new RouteMatch(route.key(), rule.index(), match, backends, backendFilters, rule.headerFilters(),
            rule.rewrite()));
      }
    }
    return out;
  }

  private void addCandidates(RouteSpec route, List<RouteMatch> results, RouteAttachment.Attached listener) {
    List<RouteTable.Candidate> port = candidates.computeIfAbsent(listener.listener().port(),
        p -> new ArrayList<>());
    int next = 0;
    for (RouteSpec.RuleSpec rule : route.rules()) {
      for (int m = 0; m < rule.matches().size(); m++) {
        port.add(new RouteTable.Candidate(results.get(next++), rule.matches().get(m),
            listener.listener().hostname(), listener.hostnames(), route, m));
      }
    }
  }

  private static ObjectNode resolvedRefs(List<List<BackendResolver.Resolution>> resolutions, long generation) {
    String reason = null;
    List<String> problems = new ArrayList<>();
    for (List<BackendResolver.Resolution> rule : resolutions) {
      for (BackendResolver.Resolution resolution : rule) {
        if (!resolution.ok()) {
          reason = reason == null ? resolution.reason() : reason;
          problems.add(resolution.backend().invalidReason());
        }
      }
    }
    return reason == null ? Conditions.ok(Conditions.RESOLVED_REFS, "all backendRefs are resolved", generation)
        : Conditions.of(Conditions.RESOLVED_REFS, false, reason, String.join("; ", problems), generation);
  }
}
