package dev.modelplane.router.pool;

import dev.modelplane.api.gie.v1.AppProtocol;
import dev.modelplane.api.gie.v1.FailureMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The endpoints of one InferencePool, the priorities of its InferenceObjectives and its InferenceModelRewrites. The endpoint list is an immutable
 * snapshot replaced on change, so the request path iterates it without locking.
 */
public final class EndpointPool {
  private final PoolKey key;
  private volatile List<EndpointState> endpoints = List.of();
  private final Map<String, Integer> objectivePriorities = new ConcurrentHashMap<>();
  private final List<EndpointListener> listeners = new CopyOnWriteArrayList<>();
  private volatile FailureMode failureMode = FailureMode.FailClose;
  private volatile AppProtocol appProtocol = AppProtocol.HTTP;
  private volatile java.util.Set<String> declaredModels = java.util.Set.of();
  private volatile ModelRewrites rewrites = ModelRewrites.NONE;

  public EndpointPool(PoolKey key) {
    this.key = key;
  }

  public PoolKey key() {
    return key;
  }

  public List<EndpointState> endpoints() {
    return endpoints;
  }

  public FailureMode failureMode() {
    return failureMode;
  }

  public void failureMode(FailureMode mode) {
    this.failureMode = mode == null ? FailureMode.FailClose : mode;
  }

  /** The protocol the pool's model servers speak: HTTP/1.1, or HTTP/2 over cleartext with prior knowledge. */
  /**
   * The model names the pool's owner says it serves (the InferencePool annotation
   * {@value KubernetesDiscovery#SERVED_MODELS_ANNOTATION}), whether or not a server runs yet.
   */
  public java.util.Set<String> declaredModels() {
    return declaredModels;
  }

  public void declaredModels(java.util.Set<String> names) {
    this.declaredModels = names == null ? java.util.Set.of() : java.util.Set.copyOf(names);
  }

  public AppProtocol appProtocol() {
    return appProtocol;
  }

  public void appProtocol(AppProtocol protocol) {
    this.appProtocol = protocol == null ? AppProtocol.HTTP : protocol;
  }

  public void addListener(EndpointListener listener) {
    listeners.add(listener);
  }

  /**
   * Replaces the endpoint set. An endpoint keeps its live state (metrics, in-flight count) when its id, address and
   * port are unchanged; label changes are applied in place by replacing the state with one carrying the old metrics.
   */
  public synchronized void setEndpoints(Collection<Endpoint> desired) {
    Map<EndpointId, EndpointState> current = new LinkedHashMap<>();
    for (EndpointState s : endpoints) {
      current.put(s.id(), s);
    }
    List<EndpointState> next = new ArrayList<>(desired.size());
    List<EndpointState> added = new ArrayList<>();
    List<EndpointState[]> replaced = new ArrayList<>();
    for (Endpoint e : desired) {
      EndpointState existing = current.remove(e.id());
      if (existing != null && existing.endpoint().equals(e)) {
        next.add(existing);
      } else if (existing != null && existing.endpoint().hostPort().equals(e.hostPort())) {
        EndpointState relabelled = new EndpointState(e);
        relabelled.updateMetrics(existing.metrics());
        next.add(relabelled);
        replaced.add(new EndpointState[] {existing, relabelled});
      } else {
        if (existing != null) {
          current.put(e.id(), existing); // same id, new address: the old one leaves
        }
        EndpointState fresh = new EndpointState(e);
        next.add(fresh);
        added.add(fresh);
      }
    }
    endpoints = List.copyOf(next);
    for (EndpointState gone : current.values()) {
      listeners.forEach(l -> l.removed(this, gone));
    }
    for (EndpointState[] pair : replaced) {
      listeners.forEach(l -> l.replaced(this, pair[0], pair[1]));
    }
    for (EndpointState joined : added) {
      listeners.forEach(l -> l.added(this, joined));
    }
  }

  /** Priority of the InferenceObjective with this name, or 0 (GIE's default) when unknown or absent. */
  public int priorityOf(String objectiveName) {
    if (objectiveName == null || objectiveName.isEmpty()) {
      return 0;
    }
    return objectivePriorities.getOrDefault(objectiveName, 0);
  }

  /** Whether an InferenceObjective of this name belongs to the pool. */
  public boolean hasObjective(String name) {
    return objectivePriorities.containsKey(name);
  }

  public void putObjective(String name, Integer priority) {
    objectivePriorities.put(name, priority == null ? 0 : priority);
  }

  public Map<String, Integer> objectives() {
    return Map.copyOf(objectivePriorities);
  }

  /** The pool's model rewrites, compiled; {@link ModelRewrites#NONE} without any. */
  public ModelRewrites rewrites() {
    return rewrites;
  }

  /** Replaces the pool's InferenceModelRewrites. */
  public void setRewrites(List<ModelRewrites.Source> sources) {
    rewrites = ModelRewrites.of(sources);
  }

  /** Replaces the pool's InferenceObjectives: priority by objective name. */
  public void setObjectives(Map<String, Integer> priorities) {
    objectivePriorities.putAll(priorities);
    objectivePriorities.keySet().retainAll(priorities.keySet());
  }

  /** The endpoint with this {@code host:port}, if any. */
  public EndpointState byHostPort(String hostPort) {
    for (EndpointState s : endpoints) {
      if (Objects.equals(s.endpoint().hostPort(), hostPort)) {
        return s;
      }
    }
    return null;
  }

  @Override
  public String toString() {
    return "pool " + key + " (" + endpoints.size() + " endpoints)";
  }
}
