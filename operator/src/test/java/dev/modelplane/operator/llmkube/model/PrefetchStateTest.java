package dev.modelplane.operator.llmkube.model;

import static dev.modelplane.operator.TestObjects.model;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.modelsource.CacheKey;
import dev.modelplane.operator.modelsource.ModelLayout;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** How a prefetch Job's state becomes the Model's phase and conditions. */
class PrefetchStateTest {
  private static final Instant NOW = Instant.parse("2026-11-22T10:00:00Z");
  private final Model model = model("llama", "source: https://example.test/m/llama.gguf\nprefetch: true\n");
  private final ModelObservation resolved = new ModelObservation(1, null,
      ModelLayout.of(model, "https://huggingface.co"), ModelPhase.READY, "WorkloadResolved", "resolved", null, null,
      null, null, null);

  private static Job job(String type, String reason, String message) {
    JobBuilder b = new JobBuilder().withNewMetadata().withName("llama-prefetch-0123456789").endMetadata();
    if (type != null) {
      b.withNewStatus().addNewCondition().withType(type).withStatus("True").withReason(reason).withMessage(message)
          .endCondition().endStatus();
    }
    return b.build();
  }

  private static Condition condition(ModelStatus s, String type) {
    return s.conditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void aRunningJobIsDownloading() {
    ModelObservation o = ModelPrefetcher.fromJob(job(null, null, null), resolved);
    assertThat(o.phase()).isEqualTo(ModelPhase.DOWNLOADING);
    ModelStatus s = ModelStatusAggregator.aggregate(o, NOW);
    assertThat(condition(s, "Progressing").getStatus()).isEqualTo("True");
    assertThat(condition(s, "Progressing").getReason()).isEqualTo("Prefetching");
    assertThat(condition(s, "Progressing").getMessage())
        .isEqualTo("Job llama-prefetch-0123456789 is downloading 1 file(s) into claim llmkube-model-cache");
    assertThat(condition(s, "Available").getStatus()).isEqualTo("False");
    assertThat(s.cacheKey()).isEqualTo(CacheKey.of("https://example.test/m/llama.gguf"));
  }

  @Test
  void aCompleteJobMakesTheModelReady() {
    ModelObservation o = ModelPrefetcher.fromJob(job("Complete", null, null), resolved);
    ModelStatus s = ModelStatusAggregator.aggregate(o, NOW);
    assertThat(s.phase()).isEqualTo(ModelPhase.READY);
    assertThat(condition(s, "Available").getReason()).isEqualTo("Prefetched");
    assertThat(condition(s, "Progressing").getStatus()).isEqualTo("False");
    assertThat(condition(s, "Degraded").getStatus()).isEqualTo("False");
  }

  @Test
  void aFailedJobFailsTheModelWithTheJobsReasonAndWhereToLook() {
    ModelObservation o = ModelPrefetcher.fromJob(job("Failed", "BackoffLimitExceeded",
        "Job has reached the specified backoff limit"), resolved);
    ModelStatus s = ModelStatusAggregator.aggregate(o, NOW);
    assertThat(s.phase()).isEqualTo(ModelPhase.FAILED);
    assertThat(condition(s, "Degraded").getStatus()).isEqualTo("True");
    assertThat(condition(s, "Degraded").getReason()).isEqualTo("PrefetchFailed");
    assertThat(condition(s, "Degraded").getMessage()).contains("spec.source")
        .contains("prefetch Job llama-prefetch-0123456789 failed: Job has reached the specified backoff limit")
        .contains("kubectl logs job/llama-prefetch-0123456789");
    assertThat(condition(s, "Available").getStatus()).isEqualTo("False");
  }
}
