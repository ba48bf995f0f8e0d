package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
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

/** {@link ClusterView} read from the API server. */
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
    return Optional.empty();
  }
}
