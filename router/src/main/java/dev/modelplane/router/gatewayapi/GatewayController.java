package dev.modelplane.router.gatewayapi;

import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.router.pool.PoolKey;
import io.fabric8.kubernetes.api.model.APIResource;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The router as a Gateway API implementation: watches GatewayClasses, Gateways, HTTPRoutes and ReferenceGrants
 * ({@code gateway.networking.k8s.io}), InferencePools, Services and Namespaces across the cluster; on every change
 * compiles them ({@link GatewayModel#compile}) for the GatewayClasses whose {@code controllerName} is ours, hands the
 * result to the gateway (which listens on the listeners' ports and routes by the HTTPRoutes) and writes the status of
 * every object it owns ({@link GatewayStatusWriter}). Changes are coalesced: one compilation runs at a time, on its
 * own thread, at most every {@value #COALESCE_MILLIS} ms.
 *
 * <p>Without the Gateway API's CRDs in the cluster it waits for them, checking every {@value #DISCOVERY_SECONDS} s,
 * and routes as before meanwhile.
 */
public final class GatewayController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayController.class);
  /** The controller name of modelplane's GatewayClass. */
  public static final String DEFAULT_CONTROLLER_NAME = "modelplane.dev/gateway-controller";
  static final String GATEWAY_API = "gateway.networking.k8s.io/v1";
  static final String REFERENCE_GRANT_API = "gateway.networking.k8s.io/v1beta1";
  private static final long COALESCE_MILLIS = 50;
  private static final long DISCOVERY_SECONDS = 5;

  /** Where the compiled routes go. */
  public interface Listeners {
    /** Routes by {@code model} and listens on its ports; completes with the ports that could not be bound. */
    CompletionStage<Map<Integer, String>> apply(GatewayModel model);

    /** The address the listeners are bound on, for the Gateways' {@code status.addresses}. */
    String address();
  }

  private final KubernetesClient client;
  private final String controllerName;
  private final Listeners listeners;
  private final GatewayStatusWriter statuses;
  private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(r -> {
    Thread t = new Thread(r, "gateway-api");
    t.setDaemon(true);
    return t;
  });
  private final AtomicBoolean pending = new AtomicBoolean();
  private final List<SharedIndexInformer<?>> informers = new CopyOnWriteArrayList<>();
  private final Map<SharedIndexInformer<?>, String> lastErrors = new java.util.concurrent.ConcurrentHashMap<>();
  private SharedIndexInformer<GenericKubernetesResource> classes;
  private SharedIndexInformer<GenericKubernetesResource> gateways;
  private SharedIndexInformer<GenericKubernetesResource> routes;
  private SharedIndexInformer<GenericKubernetesResource> grants;
  private SharedIndexInformer<Namespace> namespaces;
  private SharedIndexInformer<Service> services;
  private SharedIndexInformer<InferencePool> pools;
  private volatile boolean closed;

  public GatewayController(KubernetesClient client, String controllerName, Listeners listeners) {
    this.client = client;
    this.controllerName = controllerName;
    this.listeners = listeners;
    this.statuses = new GatewayStatusWriter(client, controllerName);
  }

  public String controllerName() {
    return controllerName;
  }

  /** Starts watching once the API serves the Gateway API; returns at once. */
  public GatewayController start() {
    Thread.ofVirtual().name("gateway-api-discovery").start(this::awaitCrds);
    return this;
  }

  private void awaitCrds() {
    boolean told = false;
    while (!closed) {
      try {
        Set<String> kinds = kinds(GATEWAY_API);
        if (kinds.containsAll(Set.of("GatewayClass", "Gateway", "HTTPRoute"))) {
          startInformers(kinds(REFERENCE_GRANT_API).contains("ReferenceGrant"));
          return;
        }
        if (!told) {
          told = true;
          LOG.atInfo().addKeyValue("controller", controllerName).log("the Gateway API (" + GATEWAY_API + ": "
              + "GatewayClass, Gateway, HTTPRoute) is not served yet; Gateways wait for its CRDs");
        }
      } catch (RuntimeException e) {
        LOG.atDebug().addKeyValue("error", e.getMessage()).log("Gateway API discovery failed; retrying");
      }
      try {
        Thread.sleep(TimeUnit.SECONDS.toMillis(DISCOVERY_SECONDS));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  private Set<String> kinds(String apiVersion) {
    APIResourceList list = client.getApiResources(apiVersion);
    Set<String> kinds = new HashSet<>();
    if (list != null && list.getResources() != null) {
      for (APIResource r : list.getResources()) {
        if (!r.getName().contains("/")) {
          kinds.add(r.getKind());
        }
      }
    }
    return kinds;
  }

  private synchronized void startInformers(boolean referenceGrants) {
    if (closed) {
      return;
    }
    classes = informer(client.genericKubernetesResources(GATEWAY_API, "GatewayClass"));
    gateways = informer(client.genericKubernetesResources(GATEWAY_API, "Gateway").inAnyNamespace());
    routes = informer(client.genericKubernetesResources(GATEWAY_API, "HTTPRoute").inAnyNamespace());
    if (referenceGrants) {
      grants = informer(client.genericKubernetesResources(REFERENCE_GRANT_API, "ReferenceGrant").inAnyNamespace());
    }
    namespaces = informer(client.namespaces());
    services = informer(client.services().inAnyNamespace());
    pools = informer(client.resources(InferencePool.class).inAnyNamespace());
    informers.forEach(SharedIndexInformer::start);
    LOG.atInfo().addKeyValue("controller", controllerName).addKeyValue("reference_grants", referenceGrants)
        .log("watching Gateway API objects");
  }

  private <T extends HasMetadata> SharedIndexInformer<T> informer(Informable<T> source) {
    SharedIndexInformer<T> informer = source.runnableInformer(0);
    informer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        changed();
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        changed();
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        changed();
      }
    });
    informer.exceptionHandler((started, t) -> {
      // Keep retrying; say why once per distinct error (a missing permission is what an operator must fix).
      String error = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
      if (!error.equals(lastErrors.put(informer, error))) {
        LOG.atWarn().addKeyValue("controller", controllerName).addKeyValue("error", error)
            .log(started ? "lost a Gateway API watch; retrying" : "cannot list Gateway API objects yet; Gateways "
                + "wait (a missing permission? see docs/gateway-api.md for the ClusterRole)");
      }
      return true;
    });
    informers.add(informer);
    return informer;
  }

  /** Something changed: compile again soon (once for a burst of changes). */
  private void changed() {
    if (!closed && pending.compareAndSet(false, true)) {
      worker.schedule(this::compile, COALESCE_MILLIS, TimeUnit.MILLISECONDS);
    }
  }

  /** Whether every watch has listed once. */
  public boolean hasSynced() {
    return !informers.isEmpty() && informers.stream().allMatch(SharedIndexInformer::hasSynced);
  }

  private void compile() {
    pending.set(false);
    if (closed) {
      return;
    }
    if (!hasSynced()) {
      changed();
      return;
    }
    try {
      GatewayModel model = GatewayModel.compile(inputs());
      Map<Integer, String> unbound = listeners.apply(model).toCompletableFuture().get(30, TimeUnit.SECONDS);
      if (!statuses.write(model.statuses(), unbound, listeners.address(), classes.getStore().list(),
          gateways.getStore().list(), routes.getStore().list(), pools.getStore().list())) {
        worker.schedule(this::changed, 1, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      LOG.atWarn().setCause(e).log("Gateway API compilation failed; trying again");
      worker.schedule(this::changed, 1, TimeUnit.SECONDS);
    }
  }

  private GatewayInputs inputs() {
    Map<String, Map<String, String>> labels = new HashMap<>();
    for (Namespace ns : namespaces.getStore().list()) {
      labels.put(ns.getMetadata().getName(), ns.getMetadata().getLabels() == null ? Map.of()
          : ns.getMetadata().getLabels());
    }
    Set<String> serviceNames = new HashSet<>();
    for (Service s : services.getStore().list()) {
      serviceNames.add(s.getMetadata().getNamespace() + "/" + s.getMetadata().getName());
    }
    Map<PoolKey, InferencePool> poolMap = new HashMap<>();
    for (InferencePool p : pools.getStore().list()) {
      poolMap.put(new PoolKey(p.getMetadata().getNamespace(), p.getMetadata().getName()), p);
    }
    return new GatewayInputs(controllerName, classes.getStore().list(), gateways.getStore().list(),
        routes.getStore().list(), grants == null ? List.of() : grants.getStore().list(), labels, serviceNames,
        poolMap);
  }

  @Override
  public void close() {
    closed = true;
    synchronized (this) {
      // informers start under this lock after checking closed: none starts after this point
    }
    informers.forEach(SharedIndexInformer::close);
    worker.shutdownNow();
    statuses.close();
  }
}
