package dev.modelplane.operator.otterscale.modelservice;

import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.SETTINGS;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.common.WorkloadPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelServicePolicyTest {
  private static List<String> fields(ModelService ms) {
    return ModelServicePolicy.violations(new ModelServiceNames(ms.getMetadata().getName(), "team"),
        ModelServicePlanner.plan(ms, SETTINGS).owned()).stream().map(WorkloadPolicy.Violation::field).toList();
  }

  @Test
  void theGeneratedObjectsPass() {
    assertThat(fields(ModelServiceFixtures.aggregated())).isEmpty();
    assertThat(fields(ModelServiceFixtures.disaggregated())).isEmpty();
  }

  @Test
  void anUnconfinedAppArmorAnnotationOfARoleIsRefusedAndNamedUnderTheRole() {
    assertThat(fields(ms("qwen", """
        model: {name: Qwen/Qwen3-0.6B, image: registry.example/models/qwen3:0.6b}
        engine: {image: vllm/vllm-openai:v0.11.0}
        accelerator: {type: nvidia}
        decode: {annotations: {container.apparmor.security.beta.kubernetes.io/vllm: unconfined}}
        """))).containsExactly("spec.decode.annotations[container.apparmor.security.beta.kubernetes.io/vllm]");
  }
}
