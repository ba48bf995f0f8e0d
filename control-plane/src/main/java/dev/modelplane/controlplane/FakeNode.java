package dev.modelplane.controlplane;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A node that kwok keeps Ready and whose pods it marks Running, with the capacity a test needs. Its pod CIDR lies
 * inside 127.0.0.0/8, so every pod IP is a loopback address.
 *
 * @param name node name
 * @param cpu CPU capacity, e.g. {@code "16"}
 * @param memory memory capacity, e.g. {@code "64Gi"}
 * @param gpus number of GPUs (0 for none)
 * @param gpuResource extended resource name of the GPUs, e.g. {@code nvidia.com/gpu} or {@code amd.com/gpu}
 * @param labels extra node labels (e.g. {@code nvidia.com/gpu.product})
 * @param capacity extended resources beyond the GPUs, e.g. {@code devic.es/dri-render}
 */
public record FakeNode(String name, String cpu, String memory, int gpus, String gpuResource,
    Map<String, String> labels, Map<String, String> capacity) {
  /** Annotation kwok is told to look for; only nodes carrying it are managed. */
  public static final String KWOK_ANNOTATION = "kwok.x-k8s.io/node";

  public FakeNode {
    labels = Map.copyOf(labels);
    capacity = Map.copyOf(capacity);
  }

  /** A CPU-only node with 16 cores and 64 GiB. */
  public static FakeNode cpu(String name) {
    return new FakeNode(name, "16", "64Gi", 0, "nvidia.com/gpu", Map.of(), Map.of());
  }

  /** A node with {@code gpus} NVIDIA GPUs, 32 cores and 256 GiB. */
  public static FakeNode nvidia(String name, int gpus) {
    return new FakeNode(name, "32", "256Gi", gpus, "nvidia.com/gpu",
        Map.of("nvidia.com/gpu.present", "true", "nvidia.com/gpu.count", Integer.toString(gpus)), Map.of());
  }

  /**
   * The Node object kwok is to manage: capacity (CPU, memory, 110 pods, GPUs, extra resources) as allocatable too,
   * the usual well-known labels, {@code podCidr}, and {@code nodeIp} as its InternalIP.
   */
  Node toNode(String podCidr, String nodeIp) {
    Map<String, Quantity> resources = new LinkedHashMap<>();
    resources.put("cpu", new Quantity(cpu));
    resources.put("memory", new Quantity(memory));
    resources.put("pods", new Quantity("110"));
    if (gpus > 0) {
      resources.put(gpuResource, new Quantity(Integer.toString(gpus)));
    }
    capacity.forEach((resource, amount) -> resources.put(resource, new Quantity(amount)));
    Map<String, String> all = new LinkedHashMap<>(labels);
    all.put("kubernetes.io/hostname", name);
    all.put("kubernetes.io/os", "linux");
    all.put("kubernetes.io/arch", "amd64");
    all.put("type", "kwok");
    return new NodeBuilder()
        .withNewMetadata().withName(name).withLabels(all).addToAnnotations(KWOK_ANNOTATION, "fake").endMetadata()
        .withNewSpec().withPodCIDR(podCidr).withPodCIDRs(podCidr).endSpec()
        .withNewStatus().withCapacity(resources).withAllocatable(resources)
        .addNewAddress().withType("InternalIP").withAddress(nodeIp).endAddress()
        .addNewAddress().withType("Hostname").withAddress(name).endAddress().endStatus()
        .build();
  }

  /** This node with an extra label. */
  public FakeNode withLabel(String key, String value) {
    Map<String, String> copy = new LinkedHashMap<>(labels);
    copy.put(key, value);
    return new FakeNode(name, cpu, memory, gpus, gpuResource, copy, capacity);
  }

  /** This node with {@code amount} of the extended resource {@code resource} as well. */
  public FakeNode withCapacity(String resource, String amount) {
    Map<String, String> copy = new LinkedHashMap<>(capacity);
    copy.put(resource, amount);
    return new FakeNode(name, cpu, memory, gpus, gpuResource, labels, copy);
  }
}
