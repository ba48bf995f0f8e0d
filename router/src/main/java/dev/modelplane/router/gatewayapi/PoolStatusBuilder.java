package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.gie.v1.EndpointPickerRef;
import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.router.pool.PoolKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds our entries of an InferencePool's {@code status.parents}: one per Gateway of ours that some HTTPRoute
 * routes to the pool through.
 */
final class PoolStatusBuilder {
  private PoolStatusBuilder() {}

  /**
   * The entries for {@code pool}.
   *
   * @param gateways Gateway {@code namespace/name} to whether some route referring to the pool is accepted there
   */
  static List<ObjectNode> entries(PoolKey key, InferencePool pool, Map<String, Boolean> gateways,
      Set<String> services, String controllerName) {
    long generation = pool.getMetadata() == null || pool.getMetadata().getGeneration() == null ? 0
        : pool.getMetadata().getGeneration();
    String pickerProblem = pickerProblem(key, pool, services);
    List<ObjectNode> out = new ArrayList<>();
    gateways.forEach((gateway, accepted) -> {
      ObjectNode entry = Json.object();
      int slash = gateway.indexOf('/');
      entry.putObject("parentRef")
          .put("group", GatewaySpec.GROUP)
          .put("kind", "Gateway")
          .put("namespace", gateway.substring(0, slash))
          .put("name", gateway.substring(slash + 1));
      entry.put("controllerName", controllerName);
      var conditions = entry.putArray("conditions");
      conditions.add(accepted
          ? Conditions.ok(Conditions.ACCEPTED, "an HTTPRoute accepted by Gateway " + gateway + " routes to this pool",
              generation)
          : Conditions.of(Conditions.ACCEPTED, false, "HTTPRouteNotAccepted", "no HTTPRoute that refers to this pool "
              + "is accepted by Gateway " + gateway, generation));
      conditions.add(pickerProblem == null
          ? Conditions.ok(Conditions.RESOLVED_REFS, "all references are resolved", generation)
          : Conditions.of(Conditions.RESOLVED_REFS, false, "InvalidExtensionRef", pickerProblem, generation));
      out.add(entry);
    });
    return out;
  }

  private static String pickerProblem(PoolKey key, InferencePool pool, Set<String> services) {
    EndpointPickerRef ref = pool.getSpec() == null ? null : pool.getSpec().endpointPickerRef();
    if (ref == null) {
      return null;
    }
    String group = ref.group() == null ? "" : ref.group();
    String kind = ref.kind() == null || ref.kind().isEmpty() ? "Service" : ref.kind();
    if (!group.isEmpty() || !"Service".equals(kind)) {
      return "endpointPickerRef names " + (group.isEmpty() ? "" : group + "/") + kind + " " + ref.name()
          + "; only a core Service is supported";
    }
    String service = key.namespace() + "/" + ref.name();
    return services.contains(service) ? null
        : "endpointPickerRef names Service " + service + ", which does not exist";
  }
}
