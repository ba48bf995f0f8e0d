package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.router.pool.PoolKey;
import java.util.List;
import java.util.Map;

/**
 * Resolves a route's {@code backendRefs} to InferencePools: checks the kind, the ReferenceGrant a reference into
 * another namespace needs, and that the pool exists, in that order (so a reference that is not permitted does not
 * reveal whether its target exists).
 */
final class BackendResolver {
  private final List<JsonNode> referenceGrants;
  private final Map<PoolKey, InferencePool> pools;

  /**
   * The outcome for one reference.
   *
   * @param backend the backend to route by; its pool is null when the reference is unusable
   * @param reason the ResolvedRefs reason when unusable, else null
   */
  record Resolution(Backend backend, String reason) {
    boolean ok() {
      return reason == null;
    }
  }

  BackendResolver(List<JsonNode> referenceGrants, Map<PoolKey, InferencePool> pools) {
    this.referenceGrants = referenceGrants;
    this.pools = pools;
  }

  Resolution resolve(RouteSpec.BackendRef ref, String routeNamespace) {
    String where = "backendRef " + ref.describe();
    if (!InferencePool.GROUP.equals(ref.group()) || !"InferencePool".equals(ref.kind())) {
      String what = ref.group().isEmpty() && "Service".equals(ref.kind()) ? "is a Service"
          : "has group \"" + ref.group() + "\" and kind " + ref.kind();
      return invalid(ref, "InvalidKind", where + " " + what + "; modelplane's gateway supports only InferencePool "
          + "backends (group " + InferencePool.GROUP + ")");
    }
    if (!ref.namespace().equals(routeNamespace) && !granted(routeNamespace, ref)) {
      return invalid(ref, "RefNotPermitted", where + " is in another namespace, and no ReferenceGrant in namespace "
          + ref.namespace() + " lets HTTPRoutes of namespace " + routeNamespace + " refer to it");
    }
    PoolKey key = new PoolKey(ref.namespace(), ref.name());
    if (!pools.containsKey(key)) {
      return invalid(ref, "BackendNotFound", where + " does not exist");
    }
    return new Resolution(new Backend(key, ref.weight(), null), null);
  }

  private static Resolution invalid(RouteSpec.BackendRef ref, String reason, String message) {
    return new Resolution(new Backend(null, ref.weight(), message), reason);
  }

  private boolean granted(String routeNamespace, RouteSpec.BackendRef ref) {
    for (JsonNode grant : referenceGrants) {
      if (!ref.namespace().equals(Json.namespace(grant))) {
        continue;
      }
      JsonNode spec = grant.path("spec");
      boolean from = Json.list(spec, "from").stream().anyMatch(f ->
          GatewaySpec.GROUP.equals(Json.textKeepEmpty(f, "group", ""))
              && GatewaySpec.HTTP_ROUTE.equals(Json.text(f, "kind", ""))
              && routeNamespace.equals(Json.text(f, "namespace", "")));
      boolean to = Json.list(spec, "to").stream().anyMatch(t ->
          InferencePool.GROUP.equals(Json.textKeepEmpty(t, "group", ""))
              && "InferencePool".equals(Json.text(t, "kind", ""))
              && Json.text(t, "name", ref.name()).equals(ref.name()));
      if (from && to) {
        return true;
      }
    }
    return false;
  }
}
