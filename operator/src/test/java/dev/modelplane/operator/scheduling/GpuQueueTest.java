package dev.modelplane.operator.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class GpuQueueTest {
  private static final Instant T0 = Instant.parse("2026-11-01T10:00:00Z");

  private static GpuQueue.Entry entry(String ns, String name, PriorityTier tier, int minute) {
    return new GpuQueue.Entry(ns, name, tier.value(), T0.plusSeconds(60L * minute));
  }

  @Test
  void priorityFirstThenCreationTimeAcrossNamespaces() {
    GpuQueue queue = new GpuQueue();
    assertThat(queue.enqueue(entry("a", "old-batch", PriorityTier.BATCH, 0))).isEqualTo(1);
    assertThat(queue.enqueue(entry("b", "normal", PriorityTier.NORMAL, 5))).isEqualTo(1);
    assertThat(queue.enqueue(entry("c", "late-critical", PriorityTier.CRITICAL, 9))).isEqualTo(1);
    assertThat(queue.enqueue(entry("a", "early-normal", PriorityTier.NORMAL, 1))).isEqualTo(2);
    assertThat(queue.entries()).extracting(GpuQueue.Entry::name)
        .containsExactly("late-critical", "early-normal", "normal", "old-batch");
    assertThat(queue.position("a", "old-batch")).isEqualTo(4);
    assertThat(queue.position("x", "absent")).isZero();
  }

  @Test
  void tiesBreakByNamespaceThenName() {
    GpuQueue queue = new GpuQueue();
    queue.enqueue(entry("b", "x", PriorityTier.NORMAL, 0));
    queue.enqueue(entry("a", "y", PriorityTier.NORMAL, 0));
    queue.enqueue(entry("a", "x", PriorityTier.NORMAL, 0));
    assertThat(queue.entries()).extracting(e -> e.namespace() + "/" + e.name()).containsExactly("a/x", "a/y", "b/x");
  }

  @Test
  void othersWhosePositionChangedAreReported() {
    GpuQueue queue = new GpuQueue();
    List<String> moved = new ArrayList<>();
    queue.onMoved(entries -> entries.forEach(e -> moved.add(e.name())));
    queue.enqueue(entry("a", "first", PriorityTier.NORMAL, 0));
    queue.enqueue(entry("a", "second", PriorityTier.NORMAL, 1));
    assertThat(moved).isEmpty();
    queue.enqueue(entry("b", "urgent", PriorityTier.HIGH, 2));
    assertThat(moved).containsExactly("first", "second");
    moved.clear();
    queue.remove("a", "first");
    assertThat(moved).containsExactly("second");
    moved.clear();
    queue.enqueue(entry("a", "second", PriorityTier.NORMAL, 1));
    assertThat(moved).isEmpty();
  }

  @Test
  void depthPerNamespaceAndTheGaugeKeepsEmptiedNamespacesAtZero() {
    GpuQueue queue = new GpuQueue();
    io.micrometer.core.instrument.simple.SimpleMeterRegistry registry =
        new io.micrometer.core.instrument.simple.SimpleMeterRegistry();
    QueueMetrics.bind(queue, registry);
    queue.enqueue(entry("a", "x", PriorityTier.NORMAL, 0));
    queue.enqueue(entry("a", "y", PriorityTier.NORMAL, 0));
    queue.enqueue(entry("b", "z", PriorityTier.NORMAL, 0));
    assertThat(queue.depthByNamespace()).isEqualTo(Map.of("a", 2L, "b", 1L));
    assertThat(registry.get(QueueMetrics.NAME).tag("namespace", "a").gauge().value()).isEqualTo(2.0);
    queue.remove("b", "z");
    assertThat(registry.get(QueueMetrics.NAME).tag("namespace", "b").gauge().value()).isZero();
  }
}
