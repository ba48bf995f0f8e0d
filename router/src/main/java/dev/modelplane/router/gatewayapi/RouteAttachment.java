package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The outcome of one {@code parentRef} of an HTTPRoute that names a Gateway of ours: the listeners the route attaches
 * to, or why it attaches to none.
 *
 * @param reason the Accepted reason ({@code Accepted} when attached)
 * @param message the Accepted message
 * @param listeners the listeners attached to, with the hostnames served through each; empty when not accepted
 */
record RouteAttachment(String reason, String message, List<Attached> listeners) {

  /**
   * A listener the route attaches to.
   *
   * @param listener the listener
   * @param hostnames the hostnames the route serves through it (empty: every host the listener takes)
   */
  record Attached(GatewaySpec.Listener listener, List<String> hostnames) {}

  boolean accepted() {
    return Conditions.ACCEPTED.equals(reason);
  }

  ObjectNode condition(long generation) {
    return Conditions.of(Conditions.ACCEPTED, accepted(), reason, message, generation);
  }

  private static RouteAttachment refused(String reason, String message) {
    return new RouteAttachment(reason, message, List.of());
  }

  /**
   * Narrows the Gateway's listeners by the parentRef's {@code sectionName} and {@code port}, then by whether they are
   * served, admit the route's namespace and share a hostname with it; the first step that leaves none decides the
   * reason. A route whose rules use something we do not support is refused even when listeners would take it.
   */
  static RouteAttachment attach(RouteSpec route, JsonNode parentRef, GatewaySpec gateway,
      Map<String, Map<String, String>> namespaceLabels) {
    String section = Json.text(parentRef, "sectionName", null);
    JsonNode portNode = parentRef.get("port");
    Integer port = portNode == null || portNode.isNull() ? null : portNode.asInt();
    String gatewayName = "Gateway " + gateway.key();
    List<GatewaySpec.Listener> listeners = new ArrayList<>(gateway.listeners());
    if (section != null) {
      listeners.removeIf(l -> !section.equals(l.name()));
      if (listeners.isEmpty()) {
        return refused("NoMatchingParent", gatewayName + " has no listener named " + section);
      }
    }
    if (port != null) {
      listeners.removeIf(l -> l.port() != port);
      if (listeners.isEmpty()) {
        return refused("NoMatchingParent", "no listener " + (section == null ? "" : "named " + section + " ")
            + "of " + gatewayName + " is on port " + port);
      }
    }
    List<GatewaySpec.Listener> served = new ArrayList<>(listeners);
    served.removeIf(l -> !gateway.programmed(l));
    if (served.isEmpty()) {
      return refused("NotAllowedByListeners", "no selected listener of " + gatewayName + " takes HTTPRoutes: "
          + gateway.notProgrammedBecause(listeners.get(0)));
    }
    served.removeIf(l -> !l.admitsNamespace(gateway.namespace(), route.namespace(), namespaceLabels));
    if (served.isEmpty()) {
      return refused("NotAllowedByListeners", "the allowedRoutes of the selected listeners of " + gatewayName
          + " do not admit routes from namespace " + route.namespace());
    }
    List<Attached> attached = new ArrayList<>();
    for (GatewaySpec.Listener listener : served) {
      List<String> common = Hostnames.intersect(listener.hostname(), route.hostnames());
      if (common != null) {
        attached.add(new Attached(listener, common));
      }
    }
    if (attached.isEmpty()) {
      return refused("NoMatchingListenerHostname", "none of the route's hostnames " + route.hostnames()
          + " matches the hostname of a selected listener of " + gatewayName);
    }
    if (!route.problems().isEmpty()) {
      return refused("UnsupportedValue", String.join("; ", route.problems()));
    }
    List<String> names = attached.stream().map(a -> a.listener().name()).toList();
    return new RouteAttachment(Conditions.ACCEPTED, "attached to listener(s) " + String.join(", ", names) + " of "
        + gatewayName, List.copyOf(attached));
  }
}
