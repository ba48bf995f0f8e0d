package dev.modelplane.router.request;

import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.SchedulingResult;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The director's answer for one request: where it goes, in order, and what changes on the way. Both front ends forward
 * {@link #destination()} and report back on the same decision.
 *
 * @param input the request as received
 * @param request the parsed request with the header changes plugins (or the external picker) asked for
 * @param result every scheduling profile's picks; {@code null} when an external picker decided
 * @param destinations endpoints, best first (retries walk this list)
 * @param attempt index into {@code destinations} of the endpoint this decision sends to
 * @param body the body to forward (re-serialised when the model was rewritten)
 * @param bodyRewritten whether {@code body} differs from the received body
 * @param external the conversation with the external picker; {@code null} when the router picked itself
 */
public record RoutingDecision(RequestInput input, InferenceRequest request, SchedulingResult result,
    List<Destination> destinations, int attempt, byte[] body, boolean bodyRewritten,
    ExternalPicker.Exchange external) {

  public RoutingDecision {
    destinations = List.copyOf(destinations);
    if (attempt < 0 || attempt >= destinations.size()) {
      throw new IllegalArgumentException("attempt " + attempt + " outside " + destinations.size() + " destinations");
    }
  }

  public EndpointPool pool() {
    return input.pool();
  }

  /** The endpoint this attempt goes to. */
  public Destination destination() {
    return destinations.get(attempt);
  }

  /** The {@code x-gateway-destination-endpoint} value: destinations as an ordered {@code ip:port} CSV. */
  public String destinationHeader() {
    return destinations.stream().map(Destination::hostPort).collect(Collectors.joining(","));
  }

  /** The next destination of the list not in {@code failed} (host:port), or {@code null} when none is left. */
  RoutingDecision nextDestination(Set<String> failed) {
    for (int i = attempt + 1; i < destinations.size(); i++) {
      if (!failed.contains(destinations.get(i).hostPort())) {
        return new RoutingDecision(input, request, result, destinations, i, body, bodyRewritten, external);
      }
    }
    return null;
  }
}
