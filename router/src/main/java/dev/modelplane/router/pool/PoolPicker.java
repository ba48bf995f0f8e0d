package dev.modelplane.router.pool;

import dev.modelplane.api.gie.v1.EndpointPickerRef;
import dev.modelplane.api.gie.v1.FailureMode;
import dev.modelplane.common.net.HostPort;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * Where the endpoint picker an InferencePool names ({@code spec.endpointPickerRef}) can be reached: the ready
 * addresses of its Service, read from the Service's EndpointSlices (never its ClusterIP: there may be no kube-proxy).
 *
 * @param name {@code namespace/name} of the picker the pool names
 * @param failureMode what the gateway does when the picker cannot be reached
 * @param addresses ready {@code ip:port}s of the picker (or {@code name:port} from an FQDN slice, looked up when
 *     dialled), sorted so that every gateway replica calls the same first one
 * @param self whether this router's own ext_proc server is among the Service's endpoints (ready or not): then it
 *     picks in-process
 * @param problem why no address is known, {@code null} when there is one (or the picker is this router)
 */
public record PoolPicker(String name, FailureMode failureMode, List<String> addresses, boolean self, String problem) {
  /** The label an EndpointSlice names its Service with. */
  public static final String SERVICE_NAME_LABEL = "kubernetes.io/service-name";

  public PoolPicker {
    addresses = List.copyOf(addresses);
    failureMode = failureMode == null ? FailureMode.FailClose : failureMode;
  }

  /** Whether a request goes to an endpoint of the gateway's choosing when the picker cannot be reached. */
  public boolean failOpen() {
    return failureMode == FailureMode.FailOpen;
  }

  /** The answer (503) of a FailClose pool whose picker has no address. */
  public String unavailableMessage() {
    return "endpoint picker " + name + " has no ready endpoint" + (problem == null ? "" : " (" + problem + ")");
  }

  /** Whether {@code ref} names a Service: the core group and the kind Service (the default). */
  static boolean namesService(EndpointPickerRef ref) {
    return (ref.group() == null || ref.group().isEmpty()) && (ref.kind() == null || "Service".equals(ref.kind()));
  }

  /**
   * Resolves the picker of a pool in {@code namespace}.
   *
   * @param service the Service {@code ref} names, {@code null} when it does not exist
   * @param slices the EndpointSlices labelled with that Service's name
   * @param isSelf whether an {@code ip:port} is this router's ext_proc server
   */
  static PoolPicker resolve(String namespace, EndpointPickerRef ref, Service service,
      Collection<EndpointSlice> slices, Predicate<String> isSelf) {
    String name = namespace + "/" + ref.name();
    if (!namesService(ref)) {
      String kind = (ref.kind() == null ? "Service" : ref.kind())
          + (ref.group() == null || ref.group().isEmpty() ? "" : "." + ref.group());
      return unreachable(name, ref, "it is a " + kind + "; only a Service can be followed");
    }
    if (ref.port() == null) {
      return unreachable(name, ref, "endpointPickerRef has no port");
    }
    if (service == null) {
      return unreachable(name, ref, "Service " + name + " not found");
    }
    List<ServicePort> ports = service.getSpec() == null || service.getSpec().getPorts() == null ? List.of()
        : service.getSpec().getPorts();
    ServicePort port = ports.stream().filter(p -> Objects.equals(p.getPort(), ref.port().number())).findFirst()
        .orElse(null);
    if (port == null) {
      return unreachable(name, ref, "Service " + name + " has no port " + ref.port().number());
    }
    String portName = port.getName() == null ? "" : port.getName();
    TreeSet<String> addresses = new TreeSet<>();
    boolean self = false;
    for (EndpointSlice slice : slices) {
      Integer number = slicePort(slice, portName);
      if (number == null || slice.getEndpoints() == null) {
        continue;
      }
      for (Endpoint e : slice.getEndpoints()) {
        boolean notReady = e.getConditions() != null && Boolean.FALSE.equals(e.getConditions().getReady());
        for (String ip : e.getAddresses() == null ? List.<String>of() : e.getAddresses()) {
          String address = HostPort.join(ip, number);
          // A router not ready yet is still the Service's own: it picks in-process rather than ask its peers.
          self |= isSelf.test(address);
          if (!notReady) {
            addresses.add(address);
          }
        }
      }
    }
    if (addresses.isEmpty() && !self) {
      return unreachable(name, ref, "no ready address of port " + (portName.isEmpty() ? ref.port().number()
          : portName) + " in the Service's EndpointSlices");
    }
    return new PoolPicker(name, ref.failureMode(), List.copyOf(addresses), self, null);
  }

  /** The slice's port named {@code portName}; for a Service port without a name, the slice's only port. */
  private static Integer slicePort(EndpointSlice slice, String portName) {
    List<EndpointPort> ports = slice.getPorts() == null ? List.of() : slice.getPorts();
    for (EndpointPort p : ports) {
      if (portName.equals(p.getName() == null ? "" : p.getName())) {
        return p.getPort();
      }
    }
    return portName.isEmpty() && ports.size() == 1 ? ports.get(0).getPort() : null;
  }

  private static PoolPicker unreachable(String name, EndpointPickerRef ref, String problem) {
    return new PoolPicker(name, ref.failureMode(), List.of(), false, problem);
  }
}
