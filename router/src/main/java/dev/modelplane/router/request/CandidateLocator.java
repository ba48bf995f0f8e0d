package dev.modelplane.router.request;

import dev.modelplane.common.net.HostPort;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Finds the endpoints a request may go to: the pool's endpoints, narrowed by the proxy's subset hint, without the ones
 * already tried and — unless nothing else is left — without the ones that recently refused connections.
 */
final class CandidateLocator {
  private final LongSupplier nanoClock;

  CandidateLocator(LongSupplier nanoClock) {
    this.nanoClock = nanoClock;
  }

  /** The candidates; a {@link RouterException} (503) when there are none. */
  List<EndpointState> locate(RequestInput input, Set<EndpointId> excluded) {
    List<EndpointState> all = filterSubset(input.pool().endpoints(), input.subsetHint());
    if (all.isEmpty()) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE,
          "failed to find endpoint candidates for serving the request: pool " + input.pool().key()
              + " has no ready endpoint");
    }
    long now = nanoClock.getAsLong();
    List<EndpointState> usable = new ArrayList<>(all.size());
    for (EndpointState s : all) {
      if (!excluded.contains(s.id()) && !s.isUnreachable(now)) {
        usable.add(s);
      }
    }
    if (usable.isEmpty()) {
      // Everything recently refused connections: try the ones not yet tried rather than failing outright.
      for (EndpointState s : all) {
        if (!excluded.contains(s.id())) {
          usable.add(s);
        }
      }
    }
    if (usable.isEmpty()) {
      throw new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "no endpoint left to try for the request");
    }
    return usable;
  }

  /** A uniformly random endpoint (GIE's answer to a request without a body); {@code null} when there is none. */
  static EndpointState random(EndpointPool pool, List<String> subsetHint) {
    List<EndpointState> all = filterSubset(pool.endpoints(), subsetHint);
    return all.isEmpty() ? null : all.get(ThreadLocalRandom.current().nextInt(all.size()));
  }

  /**
   * Narrows to the proxy's subset hint: entries are {@code ip:port} (matched exactly) or a bare {@code ip} (any port
   * of that address). An explicitly empty hint leaves nothing (503).
   */
  static List<EndpointState> filterSubset(List<EndpointState> endpoints, List<String> hint) {
    if (hint == null) {
      return endpoints;
    }
    Set<String> exact = new HashSet<>();
    Set<String> hosts = new HashSet<>();
    for (String h : hint) {
      String s = h.trim();
      if (s.isEmpty()) {
        continue;
      }
      HostPort address;
      try {
        address = HostPort.parse(s, 0); // port 0: any port of that address
      } catch (IllegalArgumentException e) {
        continue; // names no endpoint
      }
      if (address.port() == 0) {
        hosts.add(address.host());
      } else {
        exact.add(address.toString());
      }
    }
    List<EndpointState> out = new ArrayList<>();
    for (EndpointState e : endpoints) {
      if (exact.contains(e.endpoint().hostPort()) || hosts.contains(e.endpoint().address())) {
        out.add(e);
      }
    }
    return out;
  }
}
