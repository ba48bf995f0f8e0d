package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/** Builds the desired {@code status} of our GatewayClasses and Gateways. */
final class GatewayStatusBuilder {
  private GatewayStatusBuilder() {}

  /** The status of a GatewayClass of ours: accepted. */
  static ObjectNode gatewayClass(JsonNode gatewayClass, String controllerName) {
    ObjectNode status = Json.object();
    status.putArray("conditions").add(Conditions.ok(Conditions.ACCEPTED,
        "GatewayClass is handled by " + controllerName, Json.generation(gatewayClass)));
    return status;
  }

  /** The status of a Gateway of ours, given how many routes attached to each listener (by listener name). */
  static ObjectNode gateway(GatewaySpec gateway, Map<String, Integer> attachedRoutes) {
    long generation = gateway.generation();
    ObjectNode status = Json.object();
    ArrayNode conditions = status.putArray("conditions");
    long valid = gateway.listeners().stream().filter(GatewaySpec.Listener::accepted).count();
    long programmed = gateway.listeners().stream().filter(gateway::programmed).count();
    int total = gateway.listeners().size();
    if (gateway.addressProblem() != null) {
      conditions.add(Conditions.of(Conditions.ACCEPTED, false, "UnsupportedAddress", gateway.addressProblem(),
          generation));
    } else if (valid == 0) {
      conditions.add(Conditions.of(Conditions.ACCEPTED, false, "ListenersNotValid",
          total == 0 ? "Gateway has no listeners" : "none of the Gateway's " + total + " listener(s) is valid",
          generation));
    } else if (valid < total) {
      // Accepted, and the reason says not every listener is: the Gateway API's convention for a partly valid one.
      conditions.add(Conditions.of(Conditions.ACCEPTED, true, "ListenersNotValid", "Gateway is accepted; "
          + (total - valid) + " of its " + total + " listeners are not valid", generation));
    } else {
      conditions.add(Conditions.ok(Conditions.ACCEPTED, "Gateway is accepted", generation));
    }
    if (programmed > 0) {
      conditions.add(Conditions.ok(Conditions.PROGRAMMED, programmed + " of " + total
          + " listener(s) are served by modelplane's router", generation));
    } else {
      conditions.add(Conditions.of(Conditions.PROGRAMMED, false, "Invalid",
          gateway.addressProblem() != null ? "Gateway is not accepted" : "no listener of the Gateway can be served",
          generation));
    }
    ArrayNode listeners = status.putArray("listeners");
    for (GatewaySpec.Listener listener : gateway.listeners()) {
      listeners.add(listener(gateway, listener, attachedRoutes.getOrDefault(listener.name(), 0)));
    }
    return status;
  }

  private static ObjectNode listener(GatewaySpec gateway, GatewaySpec.Listener listener, int attached) {
    long generation = gateway.generation();
    ObjectNode status = Json.object();
    status.put("name", listener.name());
    ArrayNode kinds = status.putArray("supportedKinds");
    if (listener.acceptsHttpRoutes()) {
      kinds.addObject().put("group", GatewaySpec.GROUP).put("kind", GatewaySpec.HTTP_ROUTE);
    }
    status.put("attachedRoutes", attached);
    ArrayNode conditions = status.putArray("conditions");
    if (!listener.supportedProtocol()) {
      conditions.add(Conditions.of(Conditions.ACCEPTED, false, "UnsupportedProtocol", "protocol "
          + listener.protocol() + " is not supported: modelplane's gateway serves HTTP listeners only", generation));
    } else if (listener.conflicted()) {
      conditions.add(Conditions.of(Conditions.ACCEPTED, false, "HostnameConflict", "another listener of this "
          + "Gateway has port " + listener.port() + " and " + hostnameText(listener), generation));
    } else {
      conditions.add(Conditions.ok(Conditions.ACCEPTED, "listener is valid", generation));
    }
    String notProgrammed = gateway.notProgrammedBecause(listener);
    conditions.add(notProgrammed == null
        ? Conditions.ok(Conditions.PROGRAMMED, "listener is served on port " + listener.port(), generation)
        : Conditions.of(Conditions.PROGRAMMED, false, "Invalid", notProgrammed, generation));
    conditions.add(listener.invalidKinds().isEmpty()
        ? Conditions.ok(Conditions.RESOLVED_REFS, "all references are resolved", generation)
        : Conditions.of(Conditions.RESOLVED_REFS, false, "InvalidRouteKinds", "allowedRoutes.kinds names "
            + String.join(", ", listener.invalidKinds()) + "; only HTTPRoute (" + GatewaySpec.GROUP
            + ") is supported", generation));
    conditions.add(listener.conflicted()
        ? Conditions.of(Conditions.CONFLICTED, true, "HostnameConflict", "another listener of this Gateway has port "
            + listener.port() + " and " + hostnameText(listener), generation)
        : Conditions.of(Conditions.CONFLICTED, false, "NoConflicts", "no conflicts", generation));
    return status;
  }

  private static String hostnameText(GatewaySpec.Listener listener) {
    return listener.hostname() == null ? "no hostname either" : "hostname " + listener.hostname() + " too";
  }
}
