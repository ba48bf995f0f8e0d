package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.ModelGate;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelGatesTest {
  private static final InferenceService ISVC = TestObjects.isvc("modelRef: m");

  private static Model ready(long generation, long observed) {
    Model m = TestObjects.model("source: /mnt/models/llama/llama.gguf\n");
    m.getMetadata().setGeneration(generation);
    m.setStatus(new ModelStatus(ModelPhase.READY, List.of(new ConditionBuilder().withType("Available")
        .withStatus("True").withReason("HostPath").withObservedGeneration(observed).build()), null, null, null, null,
        null, null, null, null, null, null, null));
    return m;
  }

  @Test
  void aReadyStatusForTheCurrentGenerationLetsTheServiceServe() {
    assertThat(ModelGates.of(ISVC, ready(3, 3), null).state()).isEqualTo(ModelGate.State.READY);
  }

  @Test
  void aReadyStatusWrittenForAnEarlierSpecKeepsTheServicePending() {
    // spec.source patched after the Model became Ready: generation 4, status still from generation 3.
    ModelGate gate = ModelGates.of(ISVC, ready(4, 3), null);
    assertThat(gate.state()).isEqualTo(ModelGate.State.NOT_READY);
    assertThat(gate.message()).isEqualTo("Waiting for Model m to be observed at generation 4 (its Ready status is "
        + "for an earlier spec)");
  }

  @Test
  void aReadyStatusWithoutAnAvailableConditionIsNotTrusted() {
    Model m = ready(2, 2);
    m.setStatus(new ModelStatus(ModelPhase.READY, List.of(), null, null, null, null, null, null, null, null, null,
        null, null));
    assertThat(ModelGates.of(ISVC, m, null).state()).isEqualTo(ModelGate.State.NOT_READY);
  }
}
