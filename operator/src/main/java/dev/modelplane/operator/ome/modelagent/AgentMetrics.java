package dev.modelplane.operator.ome.modelagent;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The agent's Prometheus metrics: {@code modelplane_model_agent_downloads_in_progress},
 * {@code modelplane_model_agent_downloaded_bytes_total} (bytes transferred over the network, resumed parts not
 * counted twice) and {@code modelplane_model_agent_failures_total{reason}} (models reported Failed).
 */
final class AgentMetrics {
  private final MeterRegistry registry;
  private final AtomicInteger inProgress = new AtomicInteger();
  private final Counter bytes;

  AgentMetrics(MeterRegistry registry) {
    this.registry = registry;
    Gauge.builder("modelplane.model.agent.downloads.in.progress", inProgress, AtomicInteger::get)
        .description("Model downloads running on this node").register(registry);
    bytes = Counter.builder("modelplane.model.agent.downloaded.bytes")
        .description("Bytes of model files transferred to this node").register(registry);
  }

  void downloadStarted() {
    inProgress.incrementAndGet();
  }

  void downloadEnded() {
    inProgress.decrementAndGet();
  }

  void bytes(long count) {
    if (count > 0) {
      bytes.increment(count);
    }
  }

  void failure(String reason) {
    Counter.builder("modelplane.model.agent.failures").description("Models reported Failed on this node")
        .tag("reason", reason).register(registry).increment();
  }
}
