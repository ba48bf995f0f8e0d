package dev.modelplane.router.request;

import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Where a request goes and what changes on the way.
 *
 * @param input the request as received
 * @param request the scheduler's view (with header mutations from plugins)
 * @param result every profile's picks
 * @param targets the primary profile's endpoints, best first (retries walk this list)
 * @param body the body to forward (re-serialised when the model was rewritten)
 * @param bodyRewritten whether {@code body} differs from the received body
 */
public record RoutingDecision(RequestInput input, InferenceRequest request, SchedulingResult result,
    List<EndpointState> targets, byte[] body, boolean bodyRewritten) {

  public EndpointPool pool() {
    return input.pool();
  }

  /** The {@code x-gateway-destination-endpoint} value: targets as an ordered {@code ip:port} CSV. */
  public String destination() {
    return targets.stream().map(t -> t.endpoint().hostPort()).collect(Collectors.joining(","));
  }
}
