package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.discovery.v1.Endpoint;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointPort;
import io.fabric8.kubernetes.api.model.discovery.v1.EndpointSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * {@link ClusterView} read from the API server. A Service's endpoints come from its EndpointSlices, else from its
 * selector's ready pods (the dev cluster's loopback pod IPs cannot be stored in EndpointSlices).
 */
record ApiClusterView(KubernetesClient client) implements ClusterView {
  @Override
  public Optional<Path> claimDirectory(String namespace, String name) {
    PersistentVolumeClaim claim = client.persistentVolumeClaims().inNamespace(namespace).withName(name).get();
    if (claim == null || claim.getSpec().getVolumeName() == null || claim.getSpec().getVolumeName().isEmpty()) {
      return Optional.empty();
    }
    PersistentVolume volume = client.persistentVolumes().withName(claim.getSpec().getVolumeName()).get();
    if (volume == null) {
      return Optional.empty();
    }
    if (volume.getSpec().getHostPath() != null) {
      return Optional.of(Path.of(volume.getSpec().getHostPath().getPath()));
    }
    return volume.getSpec().getLocal() == null ? Optional.empty()
        : Optional.of(Path.of(volume.getSpec().getLocal().getPath()));
  }

  @Override
  public Optional<Map<String, byte[]>> configMap(String namespace, String name) {
    ConfigMap cm = client.configMaps().inNamespace(namespace).withName(name).get();
    if (cm == null) {
      return Optional.empty();
    }
    Map<String, byte[]> out = new HashMap<>();
    if (cm.getData() != null) {
      cm.getData().forEach((k, v) -> out.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    if (cm.getBinaryData() != null) {
      cm.getBinaryData().forEach((k, v) -> out.put(k, Base64.getDecoder().decode(v)));
    }
    return Optional.of(out);
  }

  @Override
  public Optional<Map<String, byte[]>> secret(String namespace, String name) {
    Secret secret = client.secrets().inNamespace(namespace).withName(name).get();
    if (secret == null) {
      return Optional.empty();
    }
    Map<String, byte[]> out = new HashMap<>();
    if (secret.getData() != null) {
      secret.getData().forEach((k, v) -> out.put(k, Base64.getDecoder().decode(v)));
    }
    if (secret.getStringData() != null) {
      secret.getStringData().forEach((k, v) -> out.put(k, v.getBytes(StandardCharsets.UTF_8)));
    }
    return Optional.of(out);
  }

  @Override
  public Optional<String> endpoint(String namespace, String name, int port) {
    Service service = client.services().inNamespace(namespace).withName(name).get();
    if (service == null || service.getSpec().getPorts() == null) {
      return Optional.empty();
    }
    Optional<ServicePort> servicePort = service.getSpec().getPorts().stream()
        .filter(p -> p.getPort() != null && p.getPort() == port).findFirst();
    if (servicePort.isEmpty()) {
      return Optional.empty();
    }
    String portName = Objects.requireNonNullElse(servicePort.get().getName(), "");
    for (EndpointSlice slice : client.discovery().v1().endpointSlices().inNamespace(namespace)
        .withLabel("kubernetes.io/service-name", name).list().getItems()) {
      Optional<Integer> target = slice.getPorts() == null ? Optional.empty() : slice.getPorts().stream()
          .filter(p -> portName.equals(Objects.requireNonNullElse(p.getName(), "")))
          .map(EndpointPort::getPort).filter(Objects::nonNull).findFirst();
      if (target.isEmpty() || slice.getEndpoints() == null) {
        continue;
      }
      for (Endpoint e : slice.getEndpoints()) {
        boolean ready = e.getConditions() == null || !Boolean.FALSE.equals(e.getConditions().getReady());
        if (ready && e.getAddresses() != null && !e.getAddresses().isEmpty()) {
          String address = e.getAddresses().get(0);
          return Optional.of((address.contains(":") ? "[" + address + "]" : address) + ":" + target.get());
        }
      }
    }
    return fromPods(namespace, service, servicePort.get());
  }

  /**
   * A ready endpoint as the EndpointSlice controller computes it: a ready pod of the Service's selector, and the
   * target port (a number, or a container port's name). The dev cluster needs this because its pod IPs are loopback
   * addresses, which the API server refuses in EndpointSlices.
   */
  private Optional<String> fromPods(String namespace, Service service, ServicePort port) {
    Map<String, String> selector = service.getSpec().getSelector();
    if (selector == null || selector.isEmpty()) {
      return Optional.empty();
    }
    for (Pod pod : client.pods().inNamespace(namespace).withLabels(selector).list().getItems()) {
      boolean ready = pod.getMetadata().getDeletionTimestamp() == null && pod.getStatus() != null
          && pod.getStatus().getPodIP() != null && pod.getStatus().getConditions() != null
          && pod.getStatus().getConditions().stream()
              .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
      Optional<Integer> target = ready ? targetPort(pod, port) : Optional.empty();
      if (target.isPresent()) {
        String ip = pod.getStatus().getPodIP();
        return Optional.of((ip.contains(":") ? "[" + ip + "]" : ip) + ":" + target.get());
      }
    }
    return Optional.empty();
  }

  private static Optional<Integer> targetPort(Pod pod, ServicePort port) {
    IntOrString target = port.getTargetPort();
    if (target == null || (target.getIntVal() == null && target.getStrVal() == null)) {
      return Optional.of(port.getPort());
    }
    if (target.getIntVal() != null) {
      return Optional.of(target.getIntVal());
    }
    return pod.getSpec().getContainers().stream()
        .flatMap(c -> c.getPorts() == null ? java.util.stream.Stream.empty() : c.getPorts().stream())
        .filter(p -> target.getStrVal().equals(p.getName())).map(ContainerPort::getContainerPort).findFirst();
  }
}
