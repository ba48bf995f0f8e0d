package dev.modelplane.cli.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.cli.user.UserError;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PlanModelFromManifestTest {
  static final Path ROOT = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();

  static Path fixture(String name) throws Exception {
    return Path.of(PlanModelFromManifestTest.class.getResource(name).toURI());
  }

  @Test
  void anLlmkubeServiceGivesItsModelsGeometryItsModelRefTheSelectedGpuAndItsTensorParallelism() throws Exception {
    Path file = fixture("llmkube-llama-70b.yaml");
    PlanModel m = PlanModel.fromManifest(file);
    assertThat(m.geometry().name()).isEqualTo("llama-3.1-70b");
    assertThat(m.modelConfigArg()).isEqualTo("llama-3.1-70b");
    assertThat(m.servedModelName()).isEqualTo("llama-3-1-70b");
    assertThat(m.source()).isEqualTo(PlanModel.Source.LLMKUBE);
    assertThat(m.gpu()).isEqualTo("h100");
    assertThat(m.tensorParallelSize()).isEqualTo(4);
    assertThat(m.manifest()).isEqualTo(file);
  }

  @Test
  void anLlmkubeServiceWithoutTensorParallelismTakesTheModelsGpuCountAndAFlagNamesTheServedModel(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("svc.yaml");
    Files.writeString(file, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: small}
        spec:
          source: hf://meta-llama/Llama-3.2-3B-Instruct
          hardware: {accelerator: cuda, gpu: {count: 2}}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec:
          modelRef: small
          runtime: vllm
          extraArgs: [--served-model-name, assistant]
          affinity:
            nodeAffinity:
              requiredDuringSchedulingIgnoredDuringExecution:
                nodeSelectorTerms:
                - matchExpressions:
                  - {key: nvidia.com/gpu.product, operator: In, values: [NVIDIA-L40S]}
        """);
    PlanModel m = PlanModel.fromManifest(file);
    assertThat(m.geometry().name()).isEqualTo("llama-3.2-3b");
    assertThat(m.servedModelName()).isEqualTo("assistant");
    assertThat(m.gpu()).isEqualTo("l40s");
    assertThat(m.tensorParallelSize()).isEqualTo(2);
  }

  @Test
  void anOmeServiceGivesItsBaseModelsGeometryTheRuntimesServedNameAndTheAcceleratorClasssOverride()
      throws Exception {
    Path file = ROOT.resolve("deploy/samples/ome/inferenceservice-llama.yaml");
    PlanModel m = PlanModel.fromManifest(file);
    assertThat(m.geometry().name()).isEqualTo("llama-3.1-8b");
    assertThat(m.source()).isEqualTo(PlanModel.Source.OME);
    // --served-model-name=$(SERVED_MODEL_NAME), the variable set in the runtime's runner
    assertThat(m.servedModelName()).isEqualTo("llama");
    // acceleratorClass nvidia-h100-80gb, whose tensorParallelismOverride in the runtime is 2
    assertThat(m.gpu()).isEqualTo("h100");
    assertThat(m.tensorParallelSize()).isEqualTo(2);
  }

  @Test
  void anOmeServiceWithoutItsRuntimeServesUnderTheBaseModelsNameWithNothingKnownOfItsHardware() throws Exception {
    PlanModel m = PlanModel.fromManifest(ROOT.resolve("deploy/samples/ome/inferenceservice-routed.yaml"));
    assertThat(m.geometry().name()).isEqualTo("qwen2.5-7b");
    assertThat(m.servedModelName()).isEqualTo("qwen2-5-7b-instruct");
    assertThat(m.gpu()).isNull();
    assertThat(m.tensorParallelSize()).isNull();
  }

  @Test
  void anOmeBaseModelAloneIsReadFromItsSizeAndItsDownloadNodes(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("base.yaml");
    Files.writeString(file, """
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: house-model}
        spec:
          modelType: llama
          modelParameterSize: 70B
          modelFormat: {name: safetensors}
          storage:
            storageUri: "hf://acme/house-model"
            path: /raid/models/house
            nodeSelector: {nvidia.com/gpu.product: NVIDIA-H200}
        """);
    PlanModel m = PlanModel.fromManifest(file);
    assertThat(m.geometry().name()).isEqualTo("llama-3.1-70b");
    assertThat(m.servedModelName()).isEqualTo("house-model");
    assertThat(m.gpu()).isEqualTo("h200"); // downloaded onto H200 nodes only, so served there
    assertThat(m.tensorParallelSize()).isNull();
  }

  @Test
  void anOtterscaleModelServiceGivesItsModelNameItsDecodeNodeSelectorAndItsTensorParallelism() throws Exception {
    PlanModel m = PlanModel.fromManifest(fixture("otterscale-llama-8b.yaml"));
    assertThat(m.geometry().name()).isEqualTo("llama-3.1-8b");
    assertThat(m.servedModelName()).isEqualTo("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(m.source()).isEqualTo(PlanModel.Source.OTTERSCALE);
    assertThat(m.gpu()).isEqualTo("l40s");
    assertThat(m.tensorParallelSize()).isEqualTo(1);
  }

  @Test
  void aModelWithoutABuiltInGeometryIsOneLineNamingTheFieldItsLineAndModelConfig() {
    Path file = ROOT.resolve("deploy/samples/otterscale/modelservice-aggregated.yaml");
    assertThatThrownBy(() -> PlanModel.fromManifest(file)).isInstanceOf(UserError.class)
        .hasMessage(file + ": ModelService team-a/qwen3-8b: line 11:5: spec.model.name: no built-in model geometry "
            + "matches \"Qwen/Qwen3-8B\" (built in: llama-3.1-8b, llama-3.1-70b, llama-3.2-3b, llama-3.2-1b, "
            + "qwen2.5-7b, qwen2.5-0.5b, qwen3-30b-a3b, mixtral-8x7b); give --model-config FILE (the model's "
            + "config.json)");
    Path llmkube = ROOT.resolve("deploy/samples/llmkube/inferenceservice-vllm-autoscaling.yaml");
    assertThatThrownBy(() -> PlanModel.fromManifest(llmkube)).hasMessageStartingWith(llmkube
        + ": Model default/qwen-2-5-coder-32b: line 53:3: spec.source: no built-in model geometry matches "
        + "\"hf://Qwen/Qwen2.5-Coder-32B-Instruct\"");
  }

  @Test
  void aFileWithoutAModelKindSaysWhichKindsItReads(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("cm.yaml");
    Files.writeString(file, "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\ndata: {a: b}\n");
    assertThatThrownBy(() -> PlanModel.fromManifest(file)).isInstanceOf(UserError.class)
        .hasMessage(file + ": no model to plan: the file holds no LLMKube Model or InferenceService, OME BaseModel, "
            + "ClusterBaseModel or InferenceService, or OtterScale ModelService");
  }

  @Test
  void badYamlAndUnknownFieldsAreTheSameOneLineErrorsAsRenders(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, "apiVersion: inference.llmkube.dev/v1alpha1\nkind: Model\nmetadata: {name: x\n"
        + "spec: {source: hf://a/b}\n");
    assertThatThrownBy(() -> PlanModel.fromManifest(file)).isInstanceOf(UserError.class)
        .hasMessage(file + ": line 4:5: not valid YAML: expected ',' or '}', but got :");
    Path typo = dir.resolve("typo.yaml");
    Files.writeString(typo, "---\napiVersion: inference.llmkube.dev/v1alpha1\nkind: Model\nmetadata: {name: x}\n"
        + "spec:\n  sourc: hf://meta-llama/Llama-3.1-8B\n");
    assertThatThrownBy(() -> PlanModel.fromManifest(typo)).isInstanceOf(UserError.class)
        .hasMessage(typo + ": Model default/x: line 6:3: unknown field \"spec.sourc\" (did you mean spec.source?)");
    Path missing = dir.resolve("none.yaml");
    assertThatThrownBy(() -> PlanModel.fromManifest(missing)).isInstanceOf(UserError.class)
        .hasMessage(missing + ": cannot read: no such file");
  }
}
