package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.router.pool.PoolKey;
import java.util.List;
import java.util.Map;

/**
 * The status modelplane wants every object it is responsible for to have. GatewayClass and Gateway values are complete
 * {@code status} objects. HTTPRoute and InferencePool values are only our own entries of {@code status.parents}: the
 * writer merges them into the stored list with {@link StatusMerge#mergeParents}, keeping other controllers' entries.
 * An empty list means we have nothing to say about that object (and stale entries of ours must go). The maps cannot
 * be changed; the nodes belong to the model that built them, so copy one ({@code deepCopy()}) before changing it, e.g.
 * with {@link StatusMerge#carryTransitionTimes}.
 *
 * @param gatewayClasses by GatewayClass name, for our GatewayClasses
 * @param gateways by {@code namespace/name}, for Gateways of our GatewayClasses
 * @param httpRouteParents by {@code namespace/name}, for every HTTPRoute given
 * @param poolParents for every InferencePool given
 */
public record GatewayStatuses(
    Map<String, ObjectNode> gatewayClasses,
    Map<String, ObjectNode> gateways,
    Map<String, List<ObjectNode>> httpRouteParents,
    Map<PoolKey, List<ObjectNode>> poolParents) {}
