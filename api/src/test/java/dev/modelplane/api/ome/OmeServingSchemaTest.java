package dev.modelplane.api.ome;

import static dev.modelplane.api.testing.Crds.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.DecoderSpec;
import dev.modelplane.api.ome.v1beta1.EngineSpec;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceProtocol;
import dev.modelplane.api.ome.v1beta1.ScaleMetric;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.api.testing.Crds;
import dev.modelplane.api.testing.Manifests;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The validation OME's ServingRuntime, ClusterServingRuntime and InferenceService ask for, read back from the
 * generated CRDs, and the embedding of Kubernetes pod specs and containers in the component types.
 */
class OmeServingSchemaTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  /** The component positions that embed a full pod spec with deployment settings. */
  private static final List<String> RUNTIME_COMPONENTS = List.of("engineConfig", "decoderConfig", "routerConfig");
  private static final List<String> SERVICE_COMPONENTS = List.of("engine", "decoder", "router", "predictor");

  @Test
  void namesScopeAndSubresources() {
    JsonNode sr = Crds.crd(ServingRuntime.class).path("spec");
    assertThat(sr.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(sr.path("names").path("singular").asText()).isEqualTo("servingruntime");
    assertThat(texts(sr.path("names").path("categories"))).containsExactly("modelplane");
    JsonNode csr = Crds.crd(ClusterServingRuntime.class).path("spec");
    assertThat(csr.path("scope").asText()).isEqualTo("Cluster");
    assertThat(csr.path("names").path("plural").asText()).isEqualTo("clusterservingruntimes");
    JsonNode isvc = Crds.crd(InferenceService.class).path("spec");
    assertThat(isvc.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(texts(isvc.path("names").path("shortNames"))).containsExactly("isvc", "oisvc");
    assertThat(isvc.path("versions").get(0).path("subresources").has("status")).isTrue();
    assertThat(isvc.path("versions").get(0).path("subresources").has("scale")).isFalse();
  }

  @Test
  void printerColumnsFollowUpstreamOrder() {
    List<String> runtimeColumns = List.of("Disabled", "ModelFormat", "ModelFramework", "ModelFrameworkVersion",
        "ModelArchitecture", "ModelSizeMin", "ModelSizeMax", "Images", "Age");
    assertThat(columns(ServingRuntime.class).findValuesAsText("name")).containsExactlyElementsOf(runtimeColumns);
    assertThat(columns(ClusterServingRuntime.class).findValuesAsText("name"))
        .containsExactlyElementsOf(runtimeColumns);
    assertThat(columns(ServingRuntime.class).get(7).path("jsonPath").asText()).isEqualTo(".spec.containers[*].image");
    JsonNode isvc = columns(InferenceService.class);
    assertThat(isvc.findValuesAsText("name")).containsExactly("URL", "Ready", "BaseModel", "Runtime", "Prev",
        "Latest", "PrevRolledoutRevision", "LatestReadyRevision", "Age");
    assertThat(isvc.get(1).path("jsonPath").asText()).isEqualTo(".status.conditions[?(@.type=='Ready')].status");
    assertThat(isvc.get(4).path("type").asText()).isEqualTo("integer");
  }

  @Test
  void clusterAndNamespacedRuntimesShareOneSpecSchema() {
    assertThat(at(ClusterServingRuntime.class, "spec")).isEqualTo(at(ServingRuntime.class, "spec"));
  }

  @Test
  void supportedModelFormatsNeedFormatAndFrameworkAndAPositivePriority() {
    JsonNode formats = at(ServingRuntime.class, "spec.supportedModelFormats");
    assertThat(formats.path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
    assertThat(texts(formats.path("items").path("required")))
        .containsExactlyInAnyOrder("modelFormat", "modelFramework");
    assertThat(at(ServingRuntime.class, "spec.supportedModelFormats[].priority").path("minimum").asInt())
        .isEqualTo(1);
    assertThat(at(ServingRuntime.class, "spec.supportedModelFormats[].modelFormat.operator").path("default").asText())
        .isEqualTo("Equal");
    assertThat(at(ServingRuntime.class, "spec.supportedModelFormats[].modelFramework.weight").path("default").asInt())
        .isEqualTo(1);
    for (String path : List.of("minMemoryPerBillionParams", "tensorParallelismOverride.tensorParallelSize",
        "tensorParallelismOverride.pipelineParallelSize", "tensorParallelismOverride.dataParallelSize")) {
      assertThat(at(ServingRuntime.class, "spec.supportedModelFormats[].acceleratorConfig{}." + path)
          .path("minimum").asInt()).as(path).isZero();
    }
    assertThat(at(ServingRuntime.class, "spec.supportedModelFormats[].acceleratorConfig{}.runtimeArgsOverride")
        .path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
    assertThat(at(ServingRuntime.class, "spec.supportedModelFormats[].diffusionPipeline.additionalComponents{}.type")
        .path("type").asText()).isEqualTo("string");
  }

  @Test
  void protocolsSizesAndAcceleratorRequirements() {
    JsonNode protocols = at(ServingRuntime.class, "spec.protocolVersions");
    assertThat(protocols.path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
    assertThat(texts(protocols.path("items").path("enum")))
        .containsExactlyInAnyOrder("openAI", "cohere", "openInference-v1", "openInference-v2");
    JsonNode sizes = at(ServingRuntime.class, "spec.modelSizeRange");
    assertThat(rules(sizes)).containsExactly("has(self.min) == has(self.max)");
    assertThat(at(ServingRuntime.class, "spec.modelSizeRange.min").path("pattern").asText())
        .isEqualTo("^[0-9]+(\\.[0-9]+)?[MBT]?$");
    assertThat(at(ServingRuntime.class, "spec.acceleratorRequirements.minMemory").path("minimum").asInt()).isZero();
    assertThat(at(ServingRuntime.class, "spec.acceleratorRequirements.minComputePerformanceTFLOPS")
        .path("minimum").asInt()).isZero();
    assertThat(at(ServingRuntime.class, "spec.acceleratorRequirements.acceleratorClasses")
        .path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
    assertThat(at(ServingRuntime.class, "spec.workers.size").path("minimum").asInt()).isZero();
  }

  @Test
  void runtimeTopLevelPodSettingsKeepPodListSemantics() {
    JsonNode containers = at(ServingRuntime.class, "spec.containers");
    assertThat(containers.path("x-kubernetes-list-type").asText()).isEqualTo("map");
    assertThat(texts(containers.path("x-kubernetes-list-map-keys"))).containsExactly("name");
    assertThat(texts(containers.path("items").path("required"))).containsExactly("name");
    assertThat(at(ServingRuntime.class, "spec.containers[].args").path("x-kubernetes-list-type").asText())
        .isEqualTo("atomic");
    assertThat(at(ServingRuntime.class, "spec.volumes").path("x-kubernetes-list-type").asText()).isEqualTo("map");
    assertThat(at(ServingRuntime.class, "spec.tolerations").path("x-kubernetes-list-type").asText())
        .isEqualTo("atomic");
    assertThat(at(ServingRuntime.class, "spec.imagePullSecrets[].name").path("default").asText()).isEmpty();
    assertThat(at(ServingRuntime.class, "spec.workers.containers").path("x-kubernetes-list-type").asText())
        .isEqualTo("map");
  }

  @Test
  void componentsEmbedAWholePodSpecNextToTheirDeploymentSettings() {
    for (String component : RUNTIME_COMPONENTS) {
      JsonNode props = at(ServingRuntime.class, "spec." + component).path("properties");
      assertPodAndExtension(component, props);
    }
    for (String component : SERVICE_COMPONENTS) {
      JsonNode props = at(InferenceService.class, "spec." + component).path("properties");
      assertPodAndExtension(component, props);
    }
    for (String path : List.of("spec.engine.leader", "spec.engine.worker", "spec.decoder.leader",
        "spec.decoder.worker", "spec.predictor.workerSpec")) {
      JsonNode props = at(InferenceService.class, path).path("properties");
      assertThat(props.has("containers") && props.has("volumes") && props.has("affinity") && props.has("runner"))
          .as(path).isTrue();
      assertThat(props.has("minReplicas")).as(path).isFalse();
    }
    assertThat(at(InferenceService.class, "spec.engine.worker.size").path("minimum").asInt()).isZero();
    // Runners and the predictor's model are containers with their fields at the top level.
    JsonNode runner = at(InferenceService.class, "spec.engine.runner").path("properties");
    assertThat(runner.has("image") && runner.has("args") && runner.has("resources") && runner.has("env")).isTrue();
    JsonNode model = at(InferenceService.class, "spec.predictor.model").path("properties");
    assertThat(model.has("image") && model.has("baseModel") && model.has("runtime") && model.has("storageUri"))
        .isTrue();
    assertThat(at(InferenceService.class, "spec.predictor.model").has("required")).isFalse();
    assertThat(at(InferenceService.class, "spec.engine.containers[].ports[].protocol").path("default").asText())
        .isEqualTo("TCP");
    assertThat(at(InferenceService.class, "spec.engine.containers").path("x-kubernetes-list-type").asText())
        .isEqualTo("map");
    assertThat(texts(at(InferenceService.class, "spec.engine.topologySpreadConstraints")
        .path("x-kubernetes-list-map-keys"))).containsExactly("topologyKey", "whenUnsatisfiable");
  }

  private static void assertPodAndExtension(String component, JsonNode props) {
    for (String field : List.of("containers", "initContainers", "volumes", "nodeSelector", "affinity",
        "tolerations", "serviceAccountName", "securityContext", "minReplicas", "maxReplicas", "scaleTarget",
        "scaleMetric", "containerConcurrency", "timeoutSeconds", "canaryTrafficPercent", "labels", "annotations",
        "minAvailable", "maxUnavailable", "deploymentStrategy", "kedaConfig")) {
      assertThat(props.has(field)).as("%s.%s", component, field).isTrue();
    }
    assertThat(props.path("minAvailable").path("x-kubernetes-int-or-string").asBoolean()).isTrue();
  }

  @Test
  void runnersOfRuntimeComponentsAndOfLeadersAndWorkersMustBeNamed() {
    for (String component : RUNTIME_COMPONENTS) {
      assertThat(texts(at(ServingRuntime.class, "spec." + component + ".runner").path("required")))
          .as(component).containsExactly("name");
    }
    for (String path : List.of("engineConfig.leader.runner", "engineConfig.worker.runner",
        "decoderConfig.leader.runner", "decoderConfig.worker.runner")) {
      assertThat(texts(at(ServingRuntime.class, "spec." + path).path("required"))).as(path).containsExactly("name");
    }
    // In an InferenceService a component's runner may omit the name; a leader's or worker's may not.
    for (String component : List.of("engine", "decoder", "router")) {
      assertThat(at(InferenceService.class, "spec." + component + ".runner").has("required")).as(component).isFalse();
    }
    assertThat(texts(at(InferenceService.class, "spec.engine.leader.runner").path("required"))).containsExactly("name");
    assertThat(texts(at(InferenceService.class, "spec.predictor.workerSpec.runner").path("required")))
        .containsExactly("name");
  }

  @Test
  void deploymentSettingsAreBoundedAndEnumerated() {
    for (String component : SERVICE_COMPONENTS) {
      String base = "spec." + component + ".";
      assertThat(at(InferenceService.class, base + "minReplicas").path("minimum").asInt()).isZero();
      assertThat(at(InferenceService.class, base + "maxReplicas").path("minimum").asInt()).isZero();
      assertThat(at(InferenceService.class, base + "scaleTarget").path("minimum").asInt()).isEqualTo(1);
      assertThat(at(InferenceService.class, base + "containerConcurrency").path("minimum").asInt()).isZero();
      assertThat(at(InferenceService.class, base + "canaryTrafficPercent").path("minimum").asInt()).isZero();
      assertThat(at(InferenceService.class, base + "canaryTrafficPercent").path("maximum").asInt()).isEqualTo(100);
      assertThat(texts(at(InferenceService.class, base + "scaleMetric").path("enum")))
          .containsExactlyInAnyOrder("cpu", "memory", "concurrency", "rps");
      assertThat(texts(at(InferenceService.class, base + "deploymentStrategy.type").path("enum")))
          .containsExactlyInAnyOrder("Recreate", "RollingUpdate");
      assertThat(at(InferenceService.class, base + "deploymentStrategy.rollingUpdate.maxSurge")
          .path("x-kubernetes-int-or-string").asBoolean()).isTrue();
      assertThat(rules(at(InferenceService.class, "spec." + component)))
          .containsExactly("!has(self.minAvailable) || !has(self.maxUnavailable)");
    }
  }

  @Test
  void kedaSettingsFollowTheWebhookRules() {
    for (String base : List.of("spec.kedaConfig", "spec.engine.kedaConfig", "spec.router.kedaConfig")) {
      assertThat(texts(at(InferenceService.class, base + ".scalingOperator").path("enum")))
          .containsExactlyInAnyOrder("GreaterThan", "GreaterThanOrEqual", "LessThan", "LessThanOrEqual");
      assertThat(at(InferenceService.class, base + ".promServerAddress").path("pattern").asText())
          .isEqualTo("^https?://[^/?#\\s]+");
      assertThat(at(InferenceService.class, base + ".scalingThreshold").has("pattern")).isTrue();
      assertThat(at(InferenceService.class, base + ".authModes").has("pattern")).isTrue();
      assertThat(at(InferenceService.class, base + ".enableKeda").path("type").asText()).isEqualTo("boolean");
      JsonNode ref = at(InferenceService.class, base + ".authenticationRef");
      assertThat(texts(ref.path("required"))).containsExactly("name");
      assertThat(at(InferenceService.class, base + ".authenticationRef.name").path("minLength").asInt())
          .isEqualTo(1);
      assertThat(at(InferenceService.class, base + ".authenticationRef.kind").path("default").asText())
          .isEqualTo("TriggerAuthentication");
      assertThat(texts(at(InferenceService.class, base + ".authenticationRef.kind").path("enum")))
          .containsExactlyInAnyOrder("TriggerAuthentication", "ClusterTriggerAuthentication");
    }
  }

  @Test
  void inferenceServiceReferencesAndCrossFieldRules() {
    assertThat(rules(at(InferenceService.class, "spec")))
        .containsExactly("!has(self.decoder) || has(self.engine) || has(self.predictor)");
    assertThat(texts(at(InferenceService.class, "spec.model").path("required"))).containsExactly("name");
    assertThat(at(InferenceService.class, "spec.model.kind").path("default").asText()).isEqualTo("ClusterBaseModel");
    assertThat(at(InferenceService.class, "spec.model.apiGroup").path("default").asText()).isEqualTo("ome.io");
    assertThat(at(InferenceService.class, "spec.model.fineTunedWeights").path("x-kubernetes-list-type").asText())
        .isEqualTo("atomic");
    assertThat(texts(at(InferenceService.class, "spec.runtime").path("required"))).containsExactly("name");
    assertThat(at(InferenceService.class, "spec.runtime.kind").path("default").asText())
        .isEqualTo("ClusterServingRuntime");
    assertThat(texts(at(InferenceService.class, "spec.acceleratorSelector.policy").path("enum")))
        .containsExactlyInAnyOrder("BestFit", "Cheapest", "MostCapable", "FirstAvailable");
    assertThat(rules(at(InferenceService.class, "spec.engine.acceleratorOverride.constraints")))
        .containsExactly("!has(self.minMemory) || !has(self.maxMemory) || self.minMemory <= self.maxMemory");
    assertThat(at(InferenceService.class, "spec.acceleratorSelector.constraints.maxMemory").path("minimum").asInt())
        .isZero();
  }

  @Test
  void statusFollowsTheModelStateMachine() {
    assertThat(texts(at(InferenceService.class, "status.modelStatus.transitionStatus").path("enum")))
        .containsExactlyInAnyOrder("", "UpToDate", "InProgress", "BlockedByFailedLoad", "InvalidSpec");
    assertThat(at(InferenceService.class, "status.modelStatus.transitionStatus").path("default").asText())
        .isEqualTo("UpToDate");
    assertThat(texts(at(InferenceService.class, "status.modelStatus").path("required")))
        .containsExactly("transitionStatus");
    JsonNode active = at(InferenceService.class, "status.modelStatus.modelRevisionStates.activeModelState");
    assertThat(texts(active.path("enum")))
        .containsExactlyInAnyOrder("", "Pending", "Standby", "Loading", "Loaded", "FailedToLoad");
    assertThat(active.path("default").asText()).isEqualTo("Pending");
    JsonNode target = at(InferenceService.class, "status.modelStatus.modelRevisionStates.targetModelState");
    assertThat(target.path("default").isTextual()).isTrue();
    assertThat(target.path("default").asText()).isEmpty();
    JsonNode failed = at(InferenceService.class, "status.modelStatus.modelCopies.failedCopies");
    assertThat(failed.path("default").asInt()).isZero();
    assertThat(texts(at(InferenceService.class, "status.modelStatus.modelCopies").path("required")))
        .containsExactly("failedCopies");
    assertThat(texts(at(InferenceService.class, "status.modelStatus.lastFailureInfo.reason").path("enum")))
        .hasSize(8).contains("ModelLoadFailed", "NoSupportingRuntime", "BaseModelNotReady");
    assertThat(at(InferenceService.class, "status.modelStatus.lastFailureInfo.time").path("format").asText())
        .isEqualTo("date-time");
    JsonNode conditions = at(InferenceService.class, "status.conditions");
    assertThat(conditions.path("x-kubernetes-list-type").asText()).isEqualTo("map");
    assertThat(texts(conditions.path("x-kubernetes-list-map-keys"))).containsExactly("type");
    assertThat(at(InferenceService.class, "status.components{}.traffic").path("x-kubernetes-list-type").asText())
        .isEqualTo("atomic");
    assertThat(at(InferenceService.class, "status.components{}.address.CACerts").path("type").asText())
        .isEqualTo("string");
    assertThat(texts(at(InferenceService.class, "status.components{}.selectedAccelerator").path("required")))
        .containsExactly("acceleratorClass");
    assertThat(at(ServingRuntime.class, "status").path("type").asText()).isEqualTo("object");
  }

  @Test
  void everyOwnFieldIsDescribed() {
    for (Class<? extends HasMetadata> type : List.of(ServingRuntime.class, InferenceService.class)) {
      assertThat(at(type, "spec").path("description").asText()).isNotBlank();
      assertThat(at(type, "status").path("description").asText()).isNotBlank();
    }
    for (String path : List.of("spec.engine.minReplicas", "spec.engine.runner", "spec.engine.leader",
        "spec.engine.acceleratorOverride", "spec.router.config", "spec.predictor.model.baseModel",
        "spec.predictor.workerSpec.size", "spec.kedaConfig.enableKeda", "status.modelStatus.modelCopies.totalCopies",
        "status.components{}.traffic[].percent", "status.address.CACerts", "status.components{}.address.CACerts")) {
      assertThat(at(InferenceService.class, path).path("description").asText()).as(path).isNotBlank();
    }
    for (String path : List.of("spec.containers", "spec.hostNetwork", "spec.workers.size", "spec.engineConfig",
        "spec.supportedModelFormats[].acceleratorConfig{}.environmentOverride")) {
      assertThat(at(ServingRuntime.class, path).path("description").asText()).as(path).isNotBlank();
    }
  }

  @Test
  void componentYamlRoundTripsThroughTheSubclassOfPodSpec() {
    String yaml = """
        minReplicas: 0
        maxReplicas: 3
        scaleMetric: rps
        maxUnavailable: 25%
        serviceAccountName: engine
        nodeSelector: {pool: gpu}
        containers:
          - name: sidecar
            image: busybox
        runner:
          name: ome-container
          image: vllm/vllm-openai
          args: [--port=8080]
        leader:
          hostNetwork: true
          runner: {name: ome-container}
        worker:
          size: 2
        """;
    EngineSpec engine = SERIALIZATION.unmarshal(yaml, EngineSpec.class);
    assertThat(engine.getMinReplicas()).isZero();
    assertThat(engine.getScaleMetric()).isEqualTo(ScaleMetric.RPS);
    assertThat(engine.getMaxUnavailable()).isEqualTo(new IntOrString("25%"));
    assertThat(engine.getServiceAccountName()).isEqualTo("engine");
    assertThat(engine.getNodeSelector()).isEqualTo(Map.of("pool", "gpu"));
    assertThat(engine.getContainers()).singleElement().satisfies(c -> assertThat(c.getName()).isEqualTo("sidecar"));
    assertThat(engine.getRunner().getArgs()).containsExactly("--port=8080");
    assertThat(engine.getLeader().getHostNetwork()).isTrue();
    assertThat(engine.getWorker().getSize()).isEqualTo(2);

    EngineSpec copy = SERIALIZATION.unmarshal(SERIALIZATION.asYaml(engine), EngineSpec.class);
    assertThat(copy).isEqualTo(engine).hasSameHashCodeAs(engine);
    assertThat(SERIALIZATION.unmarshal(SERIALIZATION.asJson(copy), JsonNode.class))
        .isEqualTo(SERIALIZATION.unmarshal(yaml, JsonNode.class));
    // Same content, different component: not equal.
    DecoderSpec decoder = SERIALIZATION.unmarshal(yaml, DecoderSpec.class);
    assertThat(decoder).isNotEqualTo(engine);
    assertThat(engine).isNotEqualTo(decoder);
    copy.setMinReplicas(1);
    assertThat(copy).isNotEqualTo(engine);
    assertThat(engine.toString()).contains("minReplicas=0", "runner=RunnerSpec(");
  }

  @Test
  void samplesReadAsTypedObjects() {
    Path samples = Crds.repoRoot().resolve("deploy/samples/ome");
    ClusterServingRuntime vllm = SERIALIZATION.unmarshal(
        Manifests.documents(samples.resolve("inferenceservice-llama.yaml")).get(1).toString(),
        ClusterServingRuntime.class);
    EngineSpec engine = vllm.getSpec().getEngineConfig();
    assertThat(engine.getRunner().getName()).isEqualTo("ome-container");
    assertThat(engine.getVolumes()).singleElement().satisfies(v -> assertThat(v.getName()).isEqualTo("dshm"));
    assertThat(vllm.getSpec().getSupportedModelFormats().get(0).acceleratorConfig().get("nvidia-h100-80gb")
        .tensorParallelismOverride().tensorParallelSize()).isEqualTo(2L);
    assertThat(vllm.getSpec().getProtocolVersions()).containsExactly(InferenceServiceProtocol.OPENAI);

    InferenceService legacy = SERIALIZATION.unmarshal(
        Manifests.documents(samples.resolve("inferenceservice-predictor.yaml")).get(1).toString(),
        InferenceService.class);
    assertThat(legacy.getSpec().predictor().getModel().getBaseModel()).isEqualTo("mistral-7b-instruct");
    assertThat(legacy.getSpec().predictor().getContainers()).singleElement()
        .satisfies(c -> assertThat(c.getName()).isEqualTo("ome-container"));
    assertThat(legacy.getSpec().predictor().getMinReplicas()).isEqualTo(1);
  }

  private static JsonNode columns(Class<? extends HasMetadata> type) {
    return Crds.crd(type).path("spec").path("versions").get(0).path("additionalPrinterColumns");
  }

  private static List<String> rules(JsonNode schema) {
    List<String> out = new ArrayList<>();
    schema.path("x-kubernetes-validations").forEach(r -> out.add(r.path("rule").asText()));
    return out;
  }

  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
