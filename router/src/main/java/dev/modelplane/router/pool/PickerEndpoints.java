package dev.modelplane.router.pool;

import dev.modelplane.api.gie.v1.EndpointPickerRef;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Informable;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoint pickers the served InferencePools name ({@code spec.endpointPickerRef}), resolved to the ready
 * addresses of their Services from the Services and EndpointSlices of the watched namespace(s) (see
 * {@link PoolPicker#resolve}), kept current by informers. {@link KubernetesDiscovery} reports each pool's reference
 * ({@link KubernetesDiscovery#followPickerRefs}) and starts and stops this with itself.
 *
 * <p>When the router may not list or watch Services or EndpointSlices (403), it says so once and every pool is picked
 * in-process: a missing permission never stops discovery.
 */
public final class PickerEndpoints implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PickerEndpoints.class);
  private static final String BY_SERVICE = "service";

  private final KubernetesClient client;
  private final Predicate<String> isSelf;
  private final Map<PoolKey, EndpointPickerRef> refs = new HashMap<>();
  private volatile Map<PoolKey, PoolPicker> resolved = Map.of();
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private final Map<String, String> lastError = new ConcurrentHashMap<>();
  private SharedIndexInformer<Service> services;
  private SharedIndexInformer<EndpointSlice> slices;
  private volatile String forbidden;

  /**
   * @param isSelf whether an {@code ip:port} is this router's ext_proc server ({@link SelfAddress})
   */
  public PickerEndpoints(KubernetesClient client, Predicate<String> isSelf) {
    this.client = client;
    this.isSelf = isSelf;
  }

  /** Starts watching Services and EndpointSlices of {@code namespace} ({@code null}: every namespace). */
  synchronized void start(String namespace) {
    var serviceSource = namespace == null ? client.services().inAnyNamespace()
        : client.services().inNamespace(namespace);
    var sliceSource = namespace == null
        ? client.discovery().v1().endpointSlices().inAnyNamespace().withLabel(PoolPicker.SERVICE_NAME_LABEL)
        : client.discovery().v1().endpointSlices().inNamespace(namespace).withLabel(PoolPicker.SERVICE_NAME_LABEL);
    services = informer("services", serviceSource, s -> s.getMetadata().getName());
    slices = informer("endpointslices.discovery.k8s.io", sliceSource, PickerEndpoints::serviceOf);
    slices.addIndexers(Map.of(BY_SERVICE, s -> serviceOf(s) == null ? List.of()
        : List.of(s.getMetadata().getNamespace() + "/" + serviceOf(s))));
    services.start();
    slices.start();
  }

  /** The Service an EndpointSlice belongs to, by its label; {@code null} without one. */
  private static String serviceOf(EndpointSlice slice) {
    Map<String, String> labels = slice.getMetadata().getLabels();
    return labels == null ? null : labels.get(PoolPicker.SERVICE_NAME_LABEL);
  }

  private <T extends HasMetadata> SharedIndexInformer<T> informer(String what, Informable<T> source,
      Function<T, String> serviceName) {
    SharedIndexInformer<T> informer = source.runnableInformer(0);
    informer.addEventHandler(new ResourceEventHandler<T>() {
      @Override
      public void onAdd(T obj) {
        serviceChanged(obj.getMetadata().getNamespace(), serviceName.apply(obj));
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        serviceChanged(newObj.getMetadata().getNamespace(), serviceName.apply(newObj));
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        serviceChanged(obj.getMetadata().getNamespace(), serviceName.apply(obj));
      }
    });
    informer.exceptionHandler((started, t) -> {
      if (isForbidden(t)) {
        forbidden(what, t);
        return false;
      }
      String error = KubernetesDiscovery.rootMessage(t);
      if (!error.equals(lastError.put(what, error))) {
        LOG.atWarn().addKeyValue("resource", what).addKeyValue("error", error)
            .log("cannot read endpoint pickers' addresses yet; retrying");
      }
      return true;
    });
    return informer;
  }

  private static boolean isForbidden(Throwable t) {
    for (Throwable e = t; e != null; e = e.getCause()) {
      if (e instanceof KubernetesClientException k && k.getCode() == 403) {
        return true;
      }
    }
    return false;
  }

  private synchronized void forbidden(String what, Throwable t) {
    if (forbidden == null) {
      LOG.atWarn().addKeyValue("resource", what).addKeyValue("error", KubernetesDiscovery.rootMessage(t))
          .log("may not list and watch " + what + ": every pool's endpointPickerRef is ignored and its requests are "
              + "picked in-process; grant list and watch on services and endpointslices.discovery.k8s.io to follow "
              + "them");
      forbidden = what;
      resolved = Map.of();
      listeners.forEach(Runnable::run);
    }
  }

  /** The pool's picker reference changed; {@code ref} is {@code null} when it has none or is gone. */
  synchronized void poolChanged(PoolKey pool, EndpointPickerRef ref) {
    if (ref == null) {
      refs.remove(pool);
    } else {
      refs.put(pool, ref);
    }
    update(pool);
  }

  private synchronized void serviceChanged(String namespace, String service) {
    if (service == null) {
      return;
    }
    for (Map.Entry<PoolKey, EndpointPickerRef> e : refs.entrySet()) {
      if (e.getKey().namespace().equals(namespace) && service.equals(e.getValue().name())) {
        update(e.getKey());
      }
    }
  }

  private void update(PoolKey pool) {
    if (forbidden != null) {
      return;
    }
    EndpointPickerRef ref = refs.get(pool);
    PoolPicker next = ref == null ? null : resolve(pool.namespace(), ref);
    PoolPicker before = resolved.get(pool);
    if (Objects.equals(before, next)) {
      return;
    }
    Map<PoolKey, PoolPicker> copy = new HashMap<>(resolved);
    if (next == null) {
      copy.remove(pool);
    } else {
      copy.put(pool, next);
    }
    resolved = Map.copyOf(copy);
    var log = LOG.atInfo().addKeyValue("pool", pool);
    if (next == null) {
      log.log("no endpoint picker reference: picked in-process");
    } else if (next.self()) {
      log.addKeyValue("picker", next.name()).log("the pool's endpoint picker is this router: picked in-process");
    } else if (next.addresses().isEmpty()) {
      log.addKeyValue("picker", next.name()).addKeyValue("failure_mode", next.failureMode())
          .addKeyValue("problem", next.problem()).log("the pool's endpoint picker has no ready endpoint");
    } else {
      log.addKeyValue("picker", next.name()).addKeyValue("address", next.addresses().get(0))
          .addKeyValue("failure_mode", next.failureMode()).log("following the pool's endpoint picker");
    }
    listeners.forEach(Runnable::run);
  }

  private PoolPicker resolve(String namespace, EndpointPickerRef ref) {
    Service service = services == null ? null : services.getStore().getByKey(namespace + "/" + ref.name());
    List<EndpointSlice> found = slices == null ? List.of()
        : slices.getIndexer().byIndex(BY_SERVICE, namespace + "/" + ref.name());
    return PoolPicker.resolve(namespace, ref, service, found, isSelf);
  }

  /**
   * The picker of a pool, or {@code null} when the router picks for it in-process: the pool names none, or Services
   * and EndpointSlices may not be read.
   */
  public PoolPicker picker(PoolKey pool) {
    return resolved.get(pool);
  }

  /** Every pool's picker (pools picked in-process for lack of a reference are absent). */
  public Map<PoolKey, PoolPicker> pickers() {
    return resolved;
  }

  /** Runs {@code listener} after each change of {@link #pickers()}. */
  public void addListener(Runnable listener) {
    listeners.add(listener);
  }

  /** Whether both informers have listed once (or reading them is forbidden, which needs no waiting). */
  boolean hasSynced() {
    return forbidden != null || (services != null && slices != null && services.hasSynced() && slices.hasSynced());
  }

  @Override
  public void close() {
    SharedIndexInformer<?> s;
    SharedIndexInformer<?> e;
    synchronized (this) {
      s = services;
      e = slices;
    }
    if (s != null) {
      s.close();
    }
    if (e != null) {
      e.close();
    }
  }
}
