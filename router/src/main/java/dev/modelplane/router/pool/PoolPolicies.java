package dev.modelplane.router.pool;

import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteSpec;
import dev.modelplane.api.gie.v1alpha2.InferenceObjectiveSpec;
import dev.modelplane.api.gie.v1alpha2.PoolObjectReference;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.CustomResource;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Applies InferenceObjectives (priorities) and InferenceModelRewrites (model names) to the pools they name. Each kind
 * exists in two groups, {@code llm-d.ai} and {@code inference.networking.x-k8s.io}: for one pool, objects of the
 * {@code llm-d.ai} group win — when any names the pool, the pool's objects of the same kind in the other group are
 * ignored — else the other group's apply. Each object naming a pool this router serves gets its verdict through a
 * {@link StatusSink}. (llm-d's picker decides once per installation: with both groups installed it ignores every
 * legacy object; modelplane installs both, and that rule would drop every objective written in the group the
 * Inference Extension documents.) Not thread-safe: the discovery calls it under its lock.
 */
final class PoolPolicies {
  /** An object of a policy kind, identified by group, namespace and name. */
  private record Id(boolean preferred, String namespace, String name) {
  }

  private record Objective(PoolKey pool, Integer priority, CustomResource<?, ?> object) {
  }

  private record Rewrite(PoolKey pool, ModelRewrites.Source source, CustomResource<?, ?> object) {
  }

  /** Told, for each object naming a pool this router serves, whether it is applied (else why not). */
  interface StatusSink {
    StatusSink NONE = (obj, applied, message) -> { };

    void verdict(CustomResource<?, ?> obj, boolean applied, String message);
  }

  private final PoolRegistry registry;
  private final StatusSink status;
  private final Map<Id, Objective> objectives = new HashMap<>();
  private final Map<Id, Rewrite> rewrites = new HashMap<>();

  PoolPolicies(PoolRegistry registry, StatusSink status) {
    this.registry = registry;
    this.status = status;
  }

  void objectiveChanged(boolean preferred, CustomResource<?, ?> obj, InferenceObjectiveSpec spec, boolean deleted) {
    Id id = id(preferred, obj);
    Objective current = deleted || spec == null || !refersToPool(spec.poolRef()) ? null
        : new Objective(new PoolKey(id.namespace(), spec.poolRef().name()), spec.priority(), obj);
    replace(objectives, id, current, Objective::pool).forEach(this::applyObjectives);
  }

  void rewriteChanged(boolean preferred, CustomResource<?, ?> obj, InferenceModelRewriteSpec spec, boolean deleted) {
    Id id = id(preferred, obj);
    Rewrite current = deleted || spec == null || !refersToPool(spec.poolRef()) ? null
        : new Rewrite(new PoolKey(id.namespace(), spec.poolRef().name()),
            new ModelRewrites.Source(id.name(), created(obj), spec), obj);
    replace(rewrites, id, current, Rewrite::pool).forEach(this::applyRewrites);
  }

  /** Puts (or, with {@code null}, removes) an object; returns the pools it named before and names now. */
  private static <T> Set<PoolKey> replace(Map<Id, T> all, Id id, T current, Function<T, PoolKey> pool) {
    Set<PoolKey> touched = new HashSet<>();
    T previous = current == null ? all.remove(id) : all.put(id, current);
    if (previous != null) {
      touched.add(pool.apply(previous));
    }
    if (current != null) {
      touched.add(pool.apply(current));
    }
    return touched;
  }

  /** A pool appeared (or came back): it gets the objectives and rewrites that name it. */
  void poolAdded(PoolKey poolKey) {
    applyObjectives(poolKey);
    applyRewrites(poolKey);
  }

  private void applyObjectives(PoolKey poolKey) {
    EndpointPool pool = registry.get(poolKey);
    if (pool == null) {
      return;
    }
    Map<Id, Objective> winners = winners(objectives, poolKey, Objective::pool);
    Map<String, Integer> effective = new HashMap<>();
    for (Map.Entry<Id, Objective> e : winners.entrySet()) {
      effective.put(e.getKey().name(), e.getValue().priority() == null ? 0 : e.getValue().priority());
    }
    pool.setObjectives(effective);
    objectives.forEach((id, o) -> {
      if (o.pool().equals(poolKey)) {
        tell(o.object(), winners.containsKey(id), poolKey, "InferenceObjectives");
      }
    });
  }

  private void applyRewrites(PoolKey poolKey) {
    EndpointPool pool = registry.get(poolKey);
    if (pool == null) {
      return;
    }
    Map<Id, Rewrite> winners = winners(rewrites, poolKey, Rewrite::pool);
    List<ModelRewrites.Source> effective = new ArrayList<>();
    winners.values().forEach(r -> effective.add(r.source()));
    pool.setRewrites(effective);
    rewrites.forEach((id, r) -> {
      if (r.pool().equals(poolKey)) {
        tell(r.object(), winners.containsKey(id), poolKey, "InferenceModelRewrites");
      }
    });
  }

  private void tell(CustomResource<?, ?> obj, boolean applied, PoolKey pool, String kinds) {
    status.verdict(obj, applied, applied ? "applied to InferencePool " + pool.name()
        : "ignored: " + kinds + " of llm-d.ai name InferencePool " + pool.name() + " and take precedence");
  }

  /** The pool's objects of the winning group: {@code llm-d.ai} when it has any for the pool, else the other. */
  private static <T> Map<Id, T> winners(Map<Id, T> all, PoolKey poolKey, Function<T, PoolKey> pool) {
    Map<Id, T> preferred = new HashMap<>();
    Map<Id, T> legacy = new HashMap<>();
    all.forEach((id, v) -> {
      if (pool.apply(v).equals(poolKey)) {
        (id.preferred() ? preferred : legacy).put(id, v);
      }
    });
    return preferred.isEmpty() ? legacy : preferred;
  }

  private static Id id(boolean preferred, HasMetadata obj) {
    return new Id(preferred, obj.getMetadata().getNamespace(), obj.getMetadata().getName());
  }

  private static Instant created(HasMetadata obj) {
    String ts = obj.getMetadata().getCreationTimestamp();
    try {
      return ts == null ? null : Instant.parse(ts);
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  /** Whether a policy's {@code poolRef} names an InferencePool (group and kind default to it). */
  static boolean refersToPool(PoolObjectReference ref) {
    if (ref == null || ref.name() == null) {
      return false;
    }
    boolean groupOk = ref.group() == null || ref.group().isEmpty() || ref.group().equals(InferencePool.GROUP);
    boolean kindOk = ref.kind() == null || ref.kind().isEmpty() || ref.kind().equals("InferencePool");
    return groupOk && kindOk;
  }
}
