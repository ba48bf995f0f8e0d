package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.operator.ome.storage.ModelPaths;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ModelResolutionTest {
  private static final BaseModel NAMESPACED = Serialization.unmarshal("""
      apiVersion: ome.io/v1beta1
      kind: BaseModel
      metadata: {name: llama, namespace: llm, annotations: {models.ome.io/category: LARGE}}
      spec: {storage: {storageUri: "hf://meta/llama", path: /m/ns}}
      """, BaseModel.class);
  private static final ClusterBaseModel CLUSTER = Serialization.unmarshal("""
      apiVersion: ome.io/v1beta1
      kind: ClusterBaseModel
      metadata: {name: llama}
      spec: {storage: {storageUri: "hf://meta/llama", path: /m/cluster}}
      """, ClusterBaseModel.class);
  private static final ClusterBaseModel DISABLED = Serialization.unmarshal("""
      apiVersion: ome.io/v1beta1
      kind: ClusterBaseModel
      metadata: {name: old}
      spec: {disabled: true, storage: {storageUri: "hf://meta/old", path: /m/old}}
      """, ClusterBaseModel.class);

  private static FineTunedWeight weight(String name, String base, String strategy) {
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: FineTunedWeight
        metadata: {name: %s}
        spec:
          baseModelRef: {name: %s}
          modelType: LoRA
          hyperParameters: {strategy: %s}
          storage: {storageUri: "hf://org/adapter", path: /a}
        """.formatted(name, base, strategy), FineTunedWeight.class);
  }

  private static ModelResolution.Result resolve(String model, String... weights) {
    String list = weights.length == 0 ? "" : ", fineTunedWeights: [" + String.join(", ", weights) + "]";
    InferenceServiceSpec spec = Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: s, namespace: llm}
        spec: {model: {name: %s%s}, engine: {}}
        """.formatted(model, list), InferenceService.class).getSpec();
    Map<String, BaseModel> ns = Map.of("llama", NAMESPACED);
    Map<String, ClusterBaseModel> cluster = Map.of("llama", CLUSTER, "llama-c", CLUSTER, "old", DISABLED);
    Map<String, FineTunedWeight> ftw = Map.of("ok", weight("ok", model, "LoRA"), "other", weight("other", "x",
        "lora"), "odd", weight("odd", model, "dpo"), "elsewhere", weight("elsewhere", model + ", namespace: team-b",
        "lora"), "here", weight("here", model + ", namespace: llm", "lora"), "namespaced",
        weight("namespaced", model + ", namespace: llm", "lora"));
    return ModelResolution.resolve(spec, "llm", n -> Optional.ofNullable(ns.get(n)),
        n -> Optional.ofNullable(cluster.get(n)), n -> Optional.ofNullable(ftw.get(n)),
        m -> new ModelPaths.Decision.NotOnNode());
  }

  private static BaseModel tenantModel(String name, String namespace, String path, String created) {
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: %s, namespace: %s, creationTimestamp: "%s"}
        spec: {storage: {storageUri: "%s"%s}}
        """.formatted(name, namespace, created, path.startsWith("local://") ? path : "hf://meta/llama",
        path.startsWith("local://") || path.isEmpty() ? "" : ", path: " + path), BaseModel.class);
  }

  /** Resolves {@code served} in namespace llm among {@code all}, with the roots /raid/models. */
  private static ModelResolution.Result resolveAmong(BaseModel served, BaseModel... all) {
    InferenceServiceSpec spec = Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: s, namespace: llm}
        spec: {model: {name: %s}, engine: {}}
        """.formatted(served.getMetadata().getName()), InferenceService.class).getSpec();
    ModelPaths paths = new ModelPaths(List.of("/raid/models"));
    List<ModelPaths.Claimant> claimants = java.util.Arrays.stream(all).map(ModelPaths.Claimant::of).toList();
    return ModelResolution.resolve(spec, "llm", n -> Optional.of(served), n -> Optional.empty(),
        n -> Optional.empty(), m -> paths.decide(ModelPaths.Claimant.of(m), claimants));
  }

  @Test
  void aModelWithoutAPathIsServedFromItsNamespacesDirectory() {
    BaseModel mine = tenantModel("llama", "llm", "", "2026-01-01T00:00:00Z");
    ModelResolution.Result result = resolveAmong(mine, mine);
    assertThat(result).isInstanceOf(ModelResolution.Found.class);
    assertThat(((ModelResolution.Found) result).model().modelDir()).isEqualTo("/raid/models/llm/llama");
  }

  @Test
  void anotherTenantsDirectoryIsNotMounted() {
    BaseModel victim = tenantModel("llama", "victim", "", "2026-01-01T00:00:00Z");
    BaseModel thief = tenantModel("llama", "llm", "/raid/models/victim/llama", "2026-02-01T00:00:00Z");
    ModelResolution.Result result = resolveAmong(thief, victim, thief);
    assertThat(result).isInstanceOf(ModelResolution.Missing.class);
    assertThat(((ModelResolution.Missing) result).blocked().reason()).isEqualTo("PolicyRefused");
    assertThat(why(result)).isEqualTo("spec.model.name: basemodel/llm/llama may not use its node directory: "
        + "spec.storage.path: '/raid/models/victim/llama' is outside the directories BaseModels of namespace llm "
        + "may use (/raid/models/llm/…); leave spec.storage.path empty to download into /raid/models/llm/llama");
    BaseModel local = tenantModel("llama", "llm", "local:///raid/models/victim/llama", "2026-02-01T00:00:00Z");
    assertThat(((ModelResolution.Missing) resolveAmong(local, victim, local)).blocked().reason())
        .isEqualTo("PolicyRefused");
  }

  @Test
  void anOverlappingDirectoryIsNotMountedAndTheOlderModelKeepsIt() {
    BaseModel older = tenantModel("base", "llm", "/raid/models/llm/base", "2026-01-01T00:00:00Z");
    BaseModel younger = tenantModel("llama", "llm", "local:///raid/models/llm/base/sub", "2026-02-01T00:00:00Z");
    ModelResolution.Result result = resolveAmong(younger, older, younger);
    assertThat(((ModelResolution.Missing) result).blocked().reason()).isEqualTo("PathConflict");
    assertThat(why(result)).isEqualTo("spec.model.name: basemodel/llm/llama may not use its node directory: "
        + "spec.storage.storageUri: '/raid/models/llm/base/sub' is inside its directory /raid/models/llm/base of "
        + "basemodel/llm/base, which claimed it first; a model's directory may not overlap another's");
    assertThat(resolveAmong(older, older, younger)).isInstanceOf(ModelResolution.Found.class);
  }

  private static String why(ModelResolution.Result result) {
    assertThat(result).isInstanceOf(ModelResolution.Missing.class);
    return ((ModelResolution.Missing) result).blocked().message();
  }

  @Test
  void aBaseModelOfTheNamespaceComesBeforeAClusterBaseModelOfTheSameName() {
    ServedModel model = ((ModelResolution.Found) resolve("llama")).model();
    assertThat(model.key().namespace()).isEqualTo("llm");
    assertThat(model.spec().storage().path()).isEqualTo("/m/ns");
    assertThat(model.category()).isEqualTo("LARGE");
    ServedModel cluster = ((ModelResolution.Found) resolve("llama-c")).model();
    assertThat(cluster.key().clusterScoped()).isTrue();
  }

  @Test
  void missingAndDisabledModelsAreExplained() {
    assertThat(why(resolve("nope"))).isEqualTo("spec.model.name: no BaseModel in namespace llm and no "
        + "ClusterBaseModel is named nope");
    assertThat(why(resolve("old"))).isEqualTo("spec.model.name: clusterbasemodel/old is disabled (spec.disabled: "
        + "true)");
  }

  @Test
  void oneFineTunedWeightIsServedAndEveryOtherCaseIsExplained() {
    assertThat(((ModelResolution.Found) resolve("llama", "ok")).model().strategy()).isEqualTo("lora");
    assertThat(why(resolve("llama", "ok", "other"))).isEqualTo("spec.model.fineTunedWeights: lists 2 weights; "
        + "serving several fine-tuned weights stacked on one base model is not supported, name one");
    assertThat(why(resolve("llama", "gone"))).isEqualTo("spec.model.fineTunedWeights: no FineTunedWeight is named "
        + "gone");
    assertThat(why(resolve("llama", "other"))).isEqualTo("spec.model.fineTunedWeights: FineTunedWeight other was "
        + "trained on x, not on basemodel/llm/llama");
    assertThat(why(resolve("llama", "elsewhere"))).isEqualTo("spec.model.fineTunedWeights: FineTunedWeight "
        + "elsewhere was trained on basemodel/team-b/llama, not on basemodel/llm/llama");
    assertThat(why(resolve("llama-c", "namespaced"))).isEqualTo("spec.model.fineTunedWeights: FineTunedWeight "
        + "namespaced was trained on basemodel/llm/llama-c, not on clusterbasemodel/llama");
    assertThat(resolve("llama", "here")).isInstanceOf(ModelResolution.Found.class);
    assertThat(why(resolve("llama", "odd"))).isEqualTo("spec.model.fineTunedWeights: FineTunedWeight odd has "
        + "strategy dpo; supported: lora, tfew");
  }
}
