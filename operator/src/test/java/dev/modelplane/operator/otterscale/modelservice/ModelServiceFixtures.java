package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.ModelServiceSettings;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.utils.Serialization;

/** ModelServices for the builder tests, written as users write them. */
final class ModelServiceFixtures {
  static final ModelServiceSettings SETTINGS = ModelServiceSettings.defaults();

  private ModelServiceFixtures() {
  }

  /** A ModelService {@code name} in namespace {@code team} whose spec is {@code specYaml} (indented by 2). */
  static ModelService ms(String name, String specYaml) {
    return Serialization.unmarshal("""
        apiVersion: model.otterscale.io/v1alpha1
        kind: ModelService
        metadata:
          name: %s
          namespace: team
        spec:
        %s""".formatted(name, specYaml.indent(2)), ModelService.class);
  }

  /** Aggregated serving of Qwen on two NVIDIA GPUs per pod. */
  static ModelService aggregated() {
    return ms("qwen", """
        model: {name: Qwen/Qwen3-0.6B, image: registry.example/models/qwen3:0.6b}
        engine: {image: vllm/vllm-openai:v0.11.0, args: [--max-model-len, "8192"]}
        accelerator: {type: nvidia}
        decode: {replicas: 2, parallelism: {tensor: 2}}
        """);
  }

  /** Prefill/decode disaggregation with the routing sidecar. */
  static ModelService disaggregated() {
    return ms("qwen", """
        model: {name: Qwen/Qwen3-0.6B, image: registry.example/models/qwen3:0.6b}
        engine: {image: vllm/vllm-openai:v0.11.0}
        accelerator: {type: nvidia}
        decode: {replicas: 1}
        prefill: {replicas: 2}
        routingProxy: {connector: nixlv2}
        """);
  }

  static <T extends HasMetadata> T find(ModelServicePlan plan, Class<T> type, String name) {
    return plan.owned().stream().filter(type::isInstance).map(type::cast)
        .filter(o -> o.getMetadata().getName().equals(name)).findFirst()
        .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " in the plan"));
  }

  static HasMetadata find(ModelServicePlan plan, String kind, String name) {
    return plan.owned().stream().filter(o -> o.getKind().equals(kind) && o.getMetadata().getName().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no " + kind + " " + name + " in the plan"));
  }

  static boolean has(ModelServicePlan plan, String kind, String name) {
    return plan.owned().stream().anyMatch(o -> o.getKind().equals(kind) && o.getMetadata().getName().equals(name));
  }

  static Deployment deployment(ModelServicePlan plan, String name) {
    return find(plan, Deployment.class, name);
  }
}
