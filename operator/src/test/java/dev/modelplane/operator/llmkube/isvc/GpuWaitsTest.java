package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.operator.scheduling.GpuQueue;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import org.junit.jupiter.api.Test;

class GpuWaitsTest {
  private static InferenceService isvc(String name, String uid) {
    InferenceService isvc = new InferenceService();
    isvc.setMetadata(new ObjectMetaBuilder().withNamespace("team").withName(name).withUid(uid)
        .withCreationTimestamp("2026-11-28T10:00:00Z").build());
    return isvc;
  }

  @Test
  void aServiceForgottenWhileAnOlderReconcileRunsIsNotQueuedAgain() {
    GpuQueue queue = new GpuQueue();
    GpuWaits waits = new GpuWaits(queue);
    InferenceService first = isvc("first", "uid-1");
    assertThat(waits.track(first, true, 10, false)).isEqualTo(1);
    waits.forget(first);
    // The serving controller's reconcile read the service before its deletion and now says it waits.
    assertThat(waits.track(first, true, 10, false)).isZero();
    assertThat(queue.entries()).isEmpty();
    // A new service of the same name (a new uid) queues as usual.
    assertThat(waits.track(isvc("first", "uid-2"), true, 10, false)).isEqualTo(1);
  }
}
