package dev.modelplane.router.scheduling;

import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import java.util.HashMap;
import java.util.Map;

/**
 * One endpoint as a scheduling cycle sees it: the metrics snapshot taken when the cycle began (so every plugin of the
 * cycle sees the same numbers) and per-request attributes written by PrepareData plugins.
 */
public final class Candidate {
  private final EndpointState state;
  private final MetricsSnapshot metrics;
  private PrefixMatch prefixMatch;
  private Map<String, Object> attributes;

  public Candidate(EndpointState state) {
    this.state = state;
    this.metrics = state.metrics();
  }

  public EndpointState state() {
    return state;
  }

  public Endpoint endpoint() {
    return state.endpoint();
  }

  public MetricsSnapshot metrics() {
    return metrics;
  }

  /** Prefix-cache match info from {@code approx-prefix-cache-producer}, or {@code null} when none ran. */
  public PrefixMatch prefixMatch() {
    return prefixMatch;
  }

  public void prefixMatch(PrefixMatch match) {
    this.prefixMatch = match;
  }

  public Object attribute(String key) {
    return attributes == null ? null : attributes.get(key);
  }

  /** Every attribute, or {@code null} when none was written. */
  public Map<String, Object> attributes() {
    return attributes;
  }

  public void attribute(String key, Object value) {
    if (attributes == null) {
      attributes = new HashMap<>();
    }
    attributes.put(key, value);
  }

  @Override
  public String toString() {
    return state.toString();
  }
}
