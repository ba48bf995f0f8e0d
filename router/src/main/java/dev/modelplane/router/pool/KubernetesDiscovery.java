package dev.modelplane.router.pool;

import dev.modelplane.api.gie.v1.EndpointPickerRef;
import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.api.gie.v1.InferencePoolSpec;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewriteSpec;
import dev.modelplane.api.gie.v1alpha2.InferenceObjectiveSpec;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches InferencePools ({@code inference.networking.k8s.io/v1}), their InferenceObjectives and
 * InferenceModelRewrites ({@link PolicyGroups}: {@code llm-d.ai/v1alpha2} or
 * {@code inference.networking.x-k8s.io/v1alpha2}) and Pods, and keeps the {@link PoolRegistry} current: a pool's
 * endpoints are its Ready, not-terminating pods matching {@code selector.matchLabels} in its namespace, times every
 * target port (limited by the pod annotation {@code inference.networking.k8s.io/active-ports}), named
 * {@code <pod>-rank-<i>}. One process can serve many pools.
 *
 * <p>Starting does not need the Kubernetes API: the informers keep retrying their first list until it answers, and
 * {@link #unavailableReason()} says why nothing can be routed meanwhile; the objective and rewrite groups are chosen
 * once the API first answers discovery. Once synced, a lost watch keeps the last
 * known endpoints (routing goes on) while the informers reconnect and relist.
 */
public final class KubernetesDiscovery implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(KubernetesDiscovery.class);

  /** Pod annotation limiting which target ports (ranks) receive traffic. */
  public static final String ACTIVE_PORTS_ANNOTATION = "inference.networking.k8s.io/active-ports";

  /**
   * InferencePool annotation naming the models its servers serve (comma-separated), set by the operator on the pools
   * it makes: the gateway then knows where a model is served before any server has said so (scaled to zero,
   * starting), and answers 503 rather than 404 for it.
   */
  public static final String SERVED_MODELS_ANNOTATION = InferencePool.SERVED_MODELS_ANNOTATION;

  /**
   * Which pools to serve.
   *
   * @param pools explicit pools; empty to serve every pool in {@code namespace}
   * @param namespace namespace to watch, {@code null} for all namespaces
   */
  public record Selection(List<PoolKey> pools, String namespace) {
    boolean wants(PoolKey key) {
      return pools.isEmpty() ? namespace == null || namespace.equals(key.namespace()) : pools.contains(key);
    }
  }

  private final KubernetesClient client;
  private final PoolRegistry registry;
  private final Selection selection;
  private final Map<PoolKey, InferencePoolSpec> specs = new HashMap<>();
  private final PoolPolicies policies;
  private final PolicyStatusWriter statusWriter;
  private final List<SharedIndexInformer<?>> informers = new CopyOnWriteArrayList<>();
  private SharedIndexInformer<Pod> pods;
  private volatile PickerEndpoints pickers;
  private volatile PolicyGroups policyGroups;
  private volatile boolean closed;
  private volatile String lastError;
  private final Map<String, String> lastErrorByResource = new java.util.concurrent.ConcurrentHashMap<>();
  private volatile long notWatchingSince = -1;
  /** How long a synced informer may be without a watch before discovery counts as behind. */
  private static final java.time.Duration WATCH_GRACE = java.time.Duration.ofSeconds(2);

  public KubernetesDiscovery(KubernetesClient client, PoolRegistry registry, Selection selection) {
    this.client = client;
    this.registry = registry;
    this.selection = selection;
    this.statusWriter = new PolicyStatusWriter(client, Clock.systemUTC());
    this.policies = new PoolPolicies(registry, statusWriter);
    selection.pools().forEach(registry::getOrCreate); // the default pool is the first one named
  }

  /**
   * Also resolves the endpoint pickers the served pools name, watching Services and EndpointSlices in the same
   * namespace(s); call before {@link #start()}. {@code pickers} starts and stops with this.
   */
  public KubernetesDiscovery followPickerRefs(PickerEndpoints pickers) {
    this.pickers = pickers;
    return this;
  }

  /** Starts watching; returns at once (see {@link #hasSynced()} and {@link #unavailableReason()}). */
  public synchronized KubernetesDiscovery start() {
    String ns = watchNamespace();
    pods = informer("pods", ns == null ? client.pods().inAnyNamespace() : client.pods().inNamespace(ns),
        handler(this::podChanged));
    informer("inferencepools", ns == null ? client.resources(InferencePool.class).inAnyNamespace()
        : client.resources(InferencePool.class).inNamespace(ns), handler(this::poolChanged));
    informers.forEach(SharedIndexInformer::start);
    if (pickers != null) {
      pickers.start(ns);
    }
    Thread.ofVirtual().name("policy-groups").start(this::watchPolicies);
    LOG.atInfo().addKeyValue("namespace", ns == null ? "*" : ns)
        .addKeyValue("pools", selection.pools().isEmpty() ? "all" : selection.pools()).log("discovery started");
    return this;
  }

  /**
   * Chooses the objective and rewrite groups once the API answers discovery (retrying until it does, or until
   * closed), then watches the chosen kinds.
   */
  private void watchPolicies() {
    long backoffMillis = 100;
    while (!closed && policyGroups == null) {
      try {
        PolicyGroups groups = PolicyGroups.discover(client, watchNamespace());
        startPolicyInformers(groups);
        return;
      } catch (RuntimeException e) {
        lastError = "API discovery: " + rootMessage(e);
        try {
          Thread.sleep(backoffMillis);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          return;
        }
        backoffMillis = Math.min(backoffMillis * 2, 5_000);
      }
    }
  }

  private synchronized void startPolicyInformers(PolicyGroups groups) {
    if (closed) {
      return;
    }
    String ns = watchNamespace();
    List<SharedIndexInformer<?>> started = new ArrayList<>();
    for (Class<? extends CustomResource<?, ?>> kind : groups.served()) {
      boolean preferred = PolicyGroups.preferred(kind);
      String what = HasMetadata.getPlural(kind) + "." + HasMetadata.getGroup(kind);
      started.add(policyInformer(what, kind, ns, (o, deleted) -> {
        if (o.getSpec() instanceof InferenceObjectiveSpec spec) {
          policies.objectiveChanged(preferred, o, spec, deleted);
        } else if (o.getSpec() instanceof InferenceModelRewriteSpec spec) {
          policies.rewriteChanged(preferred, o, spec, deleted);
        }
      }));
    }
    started.forEach(SharedIndexInformer::start);
    policyGroups = groups;
  }

  private <T extends CustomResource<?, ?>> SharedIndexInformer<T> policyInformer(String what, Class<T> type,
      String ns, Change<T> change) {
    Change<T> locked = (o, deleted) -> {
      synchronized (this) {
        change.apply(o, deleted);
      }
    };
    return informer(what, ns == null ? client.resources(type).inAnyNamespace()
        : client.resources(type).inNamespace(ns), handler(locked));
  }

  /** An informer that retries whatever fails, before its first sync too, and says why it waits. */
  private <T extends HasMetadata> SharedIndexInformer<T> informer(String what, Informable<T> source,
      ResourceEventHandler<T> handler) {
    SharedIndexInformer<T> informer = source.runnableInformer(0);
    informer.addEventHandler(handler);
    informer.exceptionHandler((started, t) -> {
      String error = what + ": " + rootMessage(t);
      if (!error.equals(lastErrorByResource.put(what, error))) {
        LOG.atWarn().addKeyValue("resource", what).addKeyValue("synced", started).addKeyValue("error", rootMessage(t))
            .log(started ? "lost the Kubernetes API; routing on the last known endpoints until it is back"
                : "waiting for the Kubernetes API");
      }
      lastError = error;
      return true;
    });
    informers.add(informer);
    return informer;
  }

  /** The first exception under the async wrappers, as {@code Type: message}. */
  static String rootMessage(Throwable t) {
    Throwable e = t;
    while ((e instanceof java.util.concurrent.CompletionException
        || e instanceof java.util.concurrent.ExecutionException) && e.getCause() != null) {
      e = e.getCause();
    }
    String type = e.getClass().getSimpleName();
    return e.getMessage() == null || e.getMessage().isBlank() ? type : type + ": " + e.getMessage();
  }

  /**
   * Why requests cannot be routed yet, or null once every informer has listed: the first list has not answered
   * (the API is unreachable, with the last error) or is still in progress.
   */
  public String unavailableReason() {
    if (hasSynced()) {
      return null;
    }
    String error = lastError;
    if (error == null && policyGroups == null) {
      return "endpoint discovery has not synced yet (waiting for the Kubernetes API's discovery at "
          + client.getMasterUrl() + ")";
    }
    return error == null ? "endpoint discovery has not synced yet (waiting for the Kubernetes API at "
        + client.getMasterUrl() + ")"
        : "endpoint discovery has not synced: the Kubernetes API is unreachable (" + error + ")";
  }

  /**
   * Why discovery is behind although it synced once — a watch lost to an API failure, being re-established —
   * or null. Routing goes on with the last known endpoints meanwhile.
   */
  public String degradedReason() {
    if (!hasSynced() || watching()) {
      notWatchingSince = -1;
      return null;
    }
    long now = System.nanoTime();
    if (notWatchingSince < 0) {
      notWatchingSince = now;
    }
    if (now - notWatchingSince < WATCH_GRACE.toNanos()) {
      return null; // a watch being (re-)established after a list, as after every sync
    }
    String error = lastError;
    return "the watch on the Kubernetes API is lost" + (error == null ? "" : " (" + error + ")")
        + "; routing on the last known endpoints";
  }

  /** Whether every informer currently has a live watch (false while the API is away; routing goes on). */
  public boolean watching() {
    return !informers.isEmpty() && informers.stream().allMatch(SharedIndexInformer::isWatching);
  }

  /** A single namespace when every requested pool lives there; otherwise all namespaces. */
  private String watchNamespace() {
    if (selection.pools().isEmpty()) {
      return selection.namespace();
    }
    Set<String> namespaces = new HashSet<>();
    selection.pools().forEach(p -> namespaces.add(p.namespace()));
    return namespaces.size() == 1 ? namespaces.iterator().next() : null;
  }

  public boolean hasSynced() {
    boolean synced = policyGroups != null && informers.stream().allMatch(SharedIndexInformer::hasSynced)
        && (pickers == null || pickers.hasSynced());
    if (synced && watching()) {
      lastError = null;
      lastErrorByResource.clear();
    }
    return synced;
  }

  /** Receives the object and whether it was deleted. */
  private interface Change<T> {
    void apply(T obj, boolean deleted);
  }

  private <T extends HasMetadata> ResourceEventHandler<T> handler(Change<T> onChange) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        onChange.apply(obj, false);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        onChange.apply(newObj, false);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        onChange.apply(obj, true);
      }
    };
  }

  private synchronized void poolChanged(InferencePool current, boolean deleted) {
    PoolKey key = new PoolKey(current.getMetadata().getNamespace(), current.getMetadata().getName());
    if (!selection.wants(key)) {
      return;
    }
    if (deleted || current.getSpec() == null) {
      specs.remove(key);
      if (pickers != null) {
        pickers.poolChanged(key, null);
      }
      if (selection.pools().contains(key)) {
        registry.getOrCreate(key).setEndpoints(List.of()); // keep the named pool, empty (503 until it returns)
      } else {
        registry.remove(key);
      }
      return;
    }
    specs.put(key, current.getSpec());
    EndpointPool pool = registry.getOrCreate(key);
    // Without a picker reference the router is the picker; a reference taken away takes its failure mode with it.
    EndpointPickerRef picker = current.getSpec().endpointPickerRef();
    pool.failureMode(picker == null ? null : picker.failureMode());
    if (pickers != null) {
      pickers.poolChanged(key, picker);
    }
    pool.appProtocol(current.getSpec().appProtocol());
    pool.declaredModels(PoolMembers.servedModels(current.getMetadata().getAnnotations()));
    resync(key);
    policies.poolAdded(key);
  }

  private synchronized void podChanged(Pod pod, boolean deleted) {
    if (pods == null) {
      return; // initial pod sync: pools are not known yet
    }
    String ns = pod.getMetadata().getNamespace();
    Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
    for (Map.Entry<PoolKey, InferencePoolSpec> e : specs.entrySet()) {
      if (e.getKey().namespace().equals(ns) && PoolMembers.matches(e.getValue(), labels)) {
        resync(e.getKey());
      }
    }
    // A pod whose labels changed away from a pool: resync pools still listing it.
    for (EndpointPool pool : registry.pools()) {
      if (pool.key().namespace().equals(ns) && specs.containsKey(pool.key())) {
        for (EndpointState s : pool.endpoints()) {
          if (s.id().name().startsWith(pod.getMetadata().getName() + "-rank-")) {
            resync(pool.key());
            break;
          }
        }
      }
    }
  }

  private void resync(PoolKey key) {
    InferencePoolSpec spec = specs.get(key);
    if (spec == null) {
      return;
    }
    List<Endpoint> endpoints = new ArrayList<>();
    for (Pod pod : pods.getStore().list()) {
      if (!key.namespace().equals(pod.getMetadata().getNamespace())) {
        continue;
      }
      Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
      if (PoolMembers.matches(spec, labels) && PoolMembers.isReady(pod)) {
        endpoints.addAll(PoolMembers.endpointsOf(pod, spec));
      }
    }
    endpoints.sort(java.util.Comparator.comparing(e -> e.id().name()));
    registry.getOrCreate(key).setEndpoints(endpoints);
  }

  @Override
  public void close() {
    closed = true;
    synchronized (this) {
      // policy informers start under this lock after checking closed: none starts after this point
    }
    informers.forEach(SharedIndexInformer::close);
    if (pickers != null) {
      pickers.close();
    }
    statusWriter.close();
  }
}
