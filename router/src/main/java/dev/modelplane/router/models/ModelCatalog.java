package dev.modelplane.router.models;

import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which pool serves which model name: the names its endpoints list in {@code /v1/models} ({@link ModelLister}), LoRA
 * adapters included, the names its owner declares ({@link EndpointPool#declaredModels()}, known before any server
 * runs) and the names its InferenceModelRewrites match (a client may ask for those; the pool sends them on under
 * another name). Computed on each call from the live state; pools are few and lists short.
 */
public final class ModelCatalog {
  /**
   * A model name and where it is served.
   *
   * @param id the name clients send
   * @param parent the base model of a LoRA adapter, {@code null} for a base model
   * @param pools the pools serving it, in name order
   */
  public record Entry(String id, String parent, List<PoolKey> pools) {
  }

  private final PoolRegistry registry;
  private final ModelLister lister;

  public ModelCatalog(PoolRegistry registry, ModelLister lister) {
    this.registry = registry;
    this.lister = lister;
  }

  /** The names {@code pool} serves. */
  public Set<String> models(EndpointPool pool) {
    Set<String> names = new LinkedHashSet<>();
    for (EndpointState e : pool.endpoints()) {
      lister.servedBy(e).forEach(m -> names.add(m.id()));
    }
    names.addAll(pool.declaredModels());
    names.addAll(pool.rewrites().matchedModels());
    return names;
  }

  /** Whether every endpoint of every pool has said what it serves (else a name may be missing for a while). */
  public boolean complete() {
    for (EndpointPool pool : registry.pools()) {
      for (EndpointState e : pool.endpoints()) {
        if (!lister.answered(e)) {
          return false;
        }
      }
    }
    return true;
  }

  /** The pools serving {@code model}, in name order. */
  public List<EndpointPool> serving(String model) {
    List<EndpointPool> out = new ArrayList<>();
    for (EndpointPool pool : registry.pools()) {
      if (models(pool).contains(model)) {
        out.add(pool);
      }
    }
    out.sort(Comparator.comparing(p -> p.key().toString()));
    return out;
  }

  /** Every name served, with its pools, in name order. */
  public List<Entry> entries() {
    Map<String, String> parents = new TreeMap<>();
    Map<String, Set<PoolKey>> pools = new TreeMap<>();
    for (EndpointPool pool : registry.pools()) {
      for (EndpointState e : pool.endpoints()) {
        for (ServedModel m : lister.servedBy(e)) {
          pools.computeIfAbsent(m.id(), k -> new LinkedHashSet<>()).add(pool.key());
          if (m.parent() != null) {
            parents.putIfAbsent(m.id(), m.parent());
          }
        }
      }
      for (String name : pool.declaredModels()) {
        pools.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(pool.key());
      }
      for (String name : pool.rewrites().matchedModels()) {
        pools.computeIfAbsent(name, k -> new LinkedHashSet<>()).add(pool.key());
      }
    }
    List<Entry> out = new ArrayList<>();
    pools.forEach((id, keys) -> {
      List<PoolKey> sorted = new ArrayList<>(keys);
      sorted.sort(Comparator.comparing(PoolKey::toString));
      out.add(new Entry(id, parents.get(id), List.copyOf(sorted)));
    });
    return out;
  }
}
