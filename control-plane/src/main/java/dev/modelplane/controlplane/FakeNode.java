package dev.modelplane.controlplane;

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
