package dev.modelplane.operator.scheduling;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes the GPU queue depth as {@code llmkube_gpu_queue_depth{namespace}}, LLMKube's metric name. A namespace
 * whose queue empties reports 0 rather than disappearing.
 */
public final class QueueMetrics {
  public static final String NAME = "llmkube_gpu_queue_depth";

  private final MeterRegistry registry;
  private final Map<String, AtomicLong> depths = new ConcurrentHashMap<>();

  private QueueMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Binds a queue's depth to a registry. */
  public static QueueMetrics bind(GpuQueue queue, MeterRegistry registry) {
    QueueMetrics metrics = new QueueMetrics(registry);
    queue.onDepth(metrics::update);
    return metrics;
  }

  void update(Map<String, Long> byNamespace) {
    byNamespace.forEach((ns, depth) -> gauge(ns).set(depth));
    depths.forEach((ns, value) -> {
      if (!byNamespace.containsKey(ns)) {
        value.set(0);
      }
    });
  }

  private AtomicLong gauge(String namespace) {
    return depths.computeIfAbsent(namespace, ns -> {
      AtomicLong value = new AtomicLong();
      Gauge.builder(NAME, value, AtomicLong::get)
          .description("InferenceServices waiting for GPUs, per namespace")
          .tag("namespace", ns)
          .register(registry);
      return value;
    });
  }
}
