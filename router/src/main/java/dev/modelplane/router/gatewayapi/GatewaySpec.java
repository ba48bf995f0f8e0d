package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A Gateway of one of our GatewayClasses, with each listener judged.
 *
 * @param tree the whole object
 * @param key {@code namespace/name}
 * @param generation {@code metadata.generation}
 * @param listeners its listeners, in order
 * @param addressProblem why the Gateway cannot be accepted for its {@code spec.addresses}, or null
 */
record GatewaySpec(JsonNode tree, String key, long generation, List<Listener> listeners, String addressProblem) {

  static final String GROUP = "gateway.networking.k8s.io";
  static final String HTTP_ROUTE = "HTTPRoute";

  /**
   * One listener.
   *
   * @param name its name, unique in the Gateway
   * @param hostname its hostname, or null for every host
   * @param port its port
   * @param protocol its protocol as written
   * @param allowedRoutes its {@code allowedRoutes} object (may be missing)
   * @param invalidKinds the route kinds it asks for that we cannot attach, as {@code group/kind}
   * @param acceptsHttpRoutes whether HTTPRoutes may attach (no kinds given, or HTTPRoute among them)
   * @param conflicted whether another listener of the Gateway has the same port and hostname
   */
  record Listener(String name, String hostname, int port, String protocol, JsonNode allowedRoutes,
      List<String> invalidKinds, boolean acceptsHttpRoutes, boolean conflicted) {

    boolean supportedProtocol() {
      return "HTTP".equals(protocol);
    }

    /** Valid in itself: a protocol we serve and no conflict. */
    boolean accepted() {
      return supportedProtocol() && !conflicted;
    }

    /** Whether routes of namespace {@code routeNamespace} may attach, per {@code allowedRoutes.namespaces}. */
    boolean admitsNamespace(String gatewayNamespace, String routeNamespace, Map<String, Map<String, String>> labels) {
      JsonNode namespaces = allowedRoutes.path("namespaces");
      return switch (Json.text(namespaces, "from", "Same")) {
        case "All" -> true;
        case "Selector" -> LabelSelectors.matches(namespaces.get("selector"),
            labels.getOrDefault(routeNamespace, Map.of()));
        case "Same" -> gatewayNamespace.equals(routeNamespace);
        default -> false;
      };
    }
  }

  static GatewaySpec parse(JsonNode tree) {
    JsonNode spec = tree.path("spec");
    List<JsonNode> nodes = Json.list(spec, "listeners");
    Map<String, Integer> sameHost = new HashMap<>();
    for (JsonNode node : nodes) {
      if ("HTTP".equals(Json.text(node, "protocol", ""))) {
        sameHost.merge(hostKey(node), 1, Integer::sum);
      }
    }
    List<Listener> listeners = new ArrayList<>();
    for (JsonNode node : nodes) {
      String protocol = Json.text(node, "protocol", "");
      JsonNode allowed = node.path("allowedRoutes");
      List<String> invalidKinds = new ArrayList<>();
      boolean http = true;
      List<JsonNode> kinds = Json.list(allowed, "kinds");
      if (!kinds.isEmpty()) {
        http = false;
        for (JsonNode kind : kinds) {
          String group = Json.textKeepEmpty(kind, "group", GROUP);
          String name = Json.text(kind, "kind", "");
          if (GROUP.equals(group) && HTTP_ROUTE.equals(name)) {
            http = true;
          } else {
            invalidKinds.add((group.isEmpty() ? "core" : group) + "/" + name);
          }
        }
      }
      boolean conflicted = "HTTP".equals(protocol) && sameHost.getOrDefault(hostKey(node), 0) > 1;
      listeners.add(new Listener(Json.text(node, "name", ""), Json.text(node, "hostname", null),
          node.path("port").asInt(0), protocol, allowed, List.copyOf(invalidKinds), http, conflicted));
    }
    List<JsonNode> addresses = Json.list(spec, "addresses");
    String addressProblem = addresses.isEmpty() ? null : "spec.addresses is not supported: modelplane's gateway "
        + "listens on the router's own address; remove the " + addresses.size() + " address(es)";
    return new GatewaySpec(tree, Json.key(tree), Json.generation(tree), List.copyOf(listeners), addressProblem);
  }

  private static String hostKey(JsonNode listener) {
    return listener.path("port").asInt(0) + " " + Json.text(listener, "hostname", "").toLowerCase(Locale.ROOT);
  }

  String namespace() {
    return Json.namespace(tree);
  }

  String name() {
    return Json.name(tree);
  }

  boolean accepted() {
    return addressProblem == null && listeners.stream().anyMatch(Listener::accepted);
  }

  /** Whether the listener serves traffic: it is valid, HTTPRoutes may attach and the Gateway is accepted. */
  boolean programmed(Listener listener) {
    return addressProblem == null && listener.accepted() && listener.acceptsHttpRoutes();
  }

  /** Why {@code listener} is not programmed, for its Programmed condition; null when it is. */
  String notProgrammedBecause(Listener listener) {
    if (addressProblem != null) {
      return "the Gateway is not accepted: " + addressProblem;
    }
    if (!listener.supportedProtocol()) {
      return "protocol " + listener.protocol() + " is not supported";
    }
    if (listener.conflicted()) {
      return "another listener of this Gateway has the same port and hostname";
    }
    if (!listener.acceptsHttpRoutes()) {
      return "no route kind this listener allows is supported";
    }
    return null;
  }
}
