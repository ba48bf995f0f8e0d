package dev.modelplane.operator.prefixrouting;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;

/**
 * What rendering a pool's precise prefix-cache routing produced besides the edited workloads.
 *
 * @param status the condition's content, or null when there is nothing to say (the picker does not use the scorer)
 * @param policy the NetworkPolicy of the event sockets ({@link KvEventsPolicy}), or null when no events port is
 *     rendered
 */
public record PrecisePrefixOutcome(PrecisePrefixStatus status, NetworkPolicy policy) {
  /** Only a condition, no policy. */
  public static PrecisePrefixOutcome of(PrecisePrefixStatus status) {
    return new PrecisePrefixOutcome(status, null);
  }
}
