package dev.modelplane.operator.scheduling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.llmkube.runtime.GpuPlan;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SchedulingInfoTest {
  private static final Set<String> GPUS = Set.copyOf(GpuPlan.KNOWN_RESOURCES);

  private static Pod pending(String created, String message) {
    return new PodBuilder().withNewMetadata().withName("p" + created).withCreationTimestamp(created).endMetadata()
        .withNewStatus().withPhase("Pending").addNewCondition().withType("PodScheduled").withStatus("False")
        .withReason("Unschedulable").withMessage(message).endCondition().endStatus().build();
  }

  @Test
  void everyGpuResourceIncludingAmd() {
    for (String resource : GpuPlan.KNOWN_RESOURCES) {
      SchedulingInfo info = SchedulingInfo.of(List.of(pending("2026-01-01T00:00:00Z",
          "0/3 nodes are available: 3 Insufficient " + resource + ".")), GPUS);
      assertThat(info.status()).isEqualTo(SchedulingInfo.INSUFFICIENT_GPU);
      assertThat(info.gpuResource()).isEqualTo(resource);
    }
  }

  @Test
  void migProfilesCpuAndCacheClaims() {
    assertThat(SchedulingInfo.classify("0/1 nodes are available: 1 Insufficient nvidia.com/mig-1g.10gb.", GPUS)
        .gpuResource()).isEqualTo("nvidia.com/mig-1g.10gb");
    assertThat(SchedulingInfo.classify("0/1 nodes are available: 1 Insufficient cpu.", GPUS).status())
        .isEqualTo(SchedulingInfo.INSUFFICIENT_RESOURCES);
    assertThat(SchedulingInfo.classify("0/1 nodes are available: pod has unbound immediate PersistentVolumeClaims.",
        GPUS).status()).isEqualTo(SchedulingInfo.UNBINDABLE_MODEL_CACHE);
    assertThat(SchedulingInfo.classify("0/1 nodes are available: 1 node(s) had untolerated taint.", GPUS)).isNull();
  }

  @Test
  void theOldestPendingPodDecidesAndScheduledPodsDoNot() {
    Pod running = new PodBuilder().withNewMetadata().withName("r").endMetadata().withNewStatus().withPhase("Running")
        .endStatus().build();
    assertThat(SchedulingInfo.of(List.of(running), GPUS)).isNull();
    SchedulingInfo info = SchedulingInfo.of(List.of(
        pending("2026-01-01T00:05:00Z", "Insufficient cpu"),
        pending("2026-01-01T00:00:00Z", "0/1 nodes are available: 1 Insufficient amd.com/gpu.")), GPUS);
    assertThat(info.gpuResource()).isEqualTo("amd.com/gpu");
  }
}
