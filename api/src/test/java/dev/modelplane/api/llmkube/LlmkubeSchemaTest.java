package dev.modelplane.api.llmkube;

import static dev.modelplane.api.testing.Crds.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.VllmAttentionBackend;
import dev.modelplane.api.testing.Crds;
import dev.modelplane.api.testing.Manifests;
import dev.modelplane.api.testing.SchemaValidator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The validation LLMKube's InferenceService and Model ask for, read back from the generated CRDs. */
class LlmkubeSchemaTest {
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final String QUANTITY = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))"
      + "(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

  // ---- InferenceService ------------------------------------------------------------------------------------------

  @Test
  void inferenceServiceNamesScopeAndSubresources() {
    JsonNode spec = Crds.crd(InferenceService.class).path("spec");
    assertThat(spec.path("group").asText()).isEqualTo("inference.llmkube.dev");
    assertThat(spec.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(spec.path("names").path("plural").asText()).isEqualTo("inferenceservices");
    assertThat(spec.path("names").path("singular").asText()).isEqualTo("inferenceservice");
    // isvc as upstream; lisvc because OME's InferenceService also claims isvc.
    assertThat(texts(spec.path("names").path("shortNames"))).containsExactly("isvc", "lisvc");
    assertThat(texts(spec.path("names").path("categories"))).containsExactly("modelplane");
    JsonNode version = spec.path("versions").get(0);
    assertThat(version.path("name").asText()).isEqualTo("v1alpha1");
    assertThat(version.path("subresources").has("status")).isTrue();
    JsonNode scale = version.path("subresources").path("scale");
    assertThat(scale.path("specReplicasPath").asText()).isEqualTo(".spec.replicas");
    assertThat(scale.path("statusReplicasPath").asText()).isEqualTo(".status.replicas");
    assertThat(scale.path("labelSelectorPath").asText()).isEqualTo(".status.selector");
    assertThat(at(InferenceService.class, "status.selector").path("type").asText()).isEqualTo("string");
    assertThat(texts(Crds.schema(InferenceService.class).path("required"))).containsExactly("spec");
  }

  @Test
  void inferenceServicePrinterColumnsFollowUpstream() {
    JsonNode columns = Crds.crd(InferenceService.class).path("spec").path("versions").get(0)
        .path("additionalPrinterColumns");
    assertThat(columns.findValuesAsText("name"))
        .containsExactly("Phase", "Model", "Replicas", "Reason", "Queue", "Priority", "Endpoint", "Age");
    assertThat(columns.findValuesAsText("jsonPath")).containsExactly(".status.phase", ".spec.modelRef",
        ".status.readyReplicas", ".status.schedulingStatus", ".status.queuePosition", ".spec.priority",
        ".status.endpoint", ".metadata.creationTimestamp");
    assertThat(columns.findValuesAsText("type"))
        .containsExactly("string", "string", "string", "string", "integer", "string", "string", "date");
    List<Integer> priorities = new ArrayList<>();
    columns.forEach(c -> priorities.add(c.path("priority").asInt(0)));
    assertThat(priorities).containsExactly(0, 0, 0, 1, 1, 1, 0, 0);
  }

  @ParameterizedTest(name = "{0} in [{1}, {2}]")
  @CsvSource({
      "spec.replicas, 0, 10",
      "spec.autoscaling.minReplicas, 1, 10",
      "spec.autoscaling.maxReplicas, 1, 100",
      "spec.contextSize, 128, 2097152",
      "spec.parallelSlots, 1, 64",
      "spec.batchSize, 1, 16384",
      "spec.resources.gpu, 0, 8",
      "spec.containerPort, 1, 65535",
      "spec.endpoint.port, 1, 65535",
      "spec.vllmConfig.speculative.numSpeculativeTokens, 1, 16",
      "spec.vllmConfig.gpuMemoryUtilization, 0.1, 0.99",
  })
  void inferenceServiceBounds(String path, String min, String max) {
    JsonNode field = at(InferenceService.class, path);
    assertThat(field.path("minimum").decimalValue()).isEqualByComparingTo(min);
    assertThat(field.path("maximum").decimalValue()).isEqualByComparingTo(max);
  }

  @ParameterizedTest(name = "{0} >= {1}")
  @CsvSource({
      "spec.uBatchSize, 1",
      "spec.moeCPULayers, 0",
      "spec.reasoningBudget, 0",
      "spec.ropeScaling.originalContext, 128",
      "spec.vllmConfig.maxNumBatchedTokens, 512",
      "spec.vllmConfig.cpuOffloadGB, 0",
      "spec.autoscaling.metrics[].targetAverageUtilization, 1",
  })
  void inferenceServiceLowerBounds(String path, String min) {
    JsonNode field = at(InferenceService.class, path);
    assertThat(field.path("minimum").decimalValue()).isEqualByComparingTo(min);
    assertThat(field.has("maximum")).isFalse();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "spec.cacheTypeK | f16 f32 q8_0 q4_0 q4_1 q5_0 q5_1 iq4_nl",
      "spec.cacheTypeV | f16 f32 q8_0 q4_0 q4_1 q5_0 q5_1 iq4_nl",
      "spec.runtime | llamacpp personaplex vllm tgi generic",
      "spec.priority | critical high normal low batch",
      "spec.ropeScaling.type | linear yarn longrope",
      "spec.endpoint.type | ClusterIP NodePort LoadBalancer",
      "spec.autoscaling.metrics[].type | Pods Resource",
      "spec.tgiConfig.dtype | float16 bfloat16",
      "spec.tgiConfig.quantize | bitsandbytes gptq awq eetq",
      "spec.vllmConfig.dtype | auto float16 bfloat16",
      "spec.vllmConfig.kvCacheDtype | auto fp8_e5m2 fp8_e4m3",
      "spec.vllmConfig.quantization | awq gptq squeezellm fp8 nvfp4 compressed-tensors",
      "spec.vllmConfig.attentionBackend | FLASH_ATTN FLASHINFER XFORMERS flashinfer flash_attn xformers torch_sdpa",
      "status.phase | Pending Creating Progressing Ready WaitingForGPU Stopped Failed",
  })
  void inferenceServiceEnums(String path, String values) {
    assertThat(texts(at(InferenceService.class, path).path("enum")))
        .containsExactlyInAnyOrder(values.strip().split(" "));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
      "spec.replicas, 1",
      "spec.runtime, llamacpp",
      "spec.priority, normal",
      "spec.autoscaling.minReplicas, 1",
      "spec.endpoint.path, /v1/chat/completions",
      "spec.endpoint.port, 8080",
      "spec.endpoint.type, ClusterIP",
      "spec.vllmConfig.kvCacheDtype, auto",
      "spec.vllmConfig.speculative.numSpeculativeTokens, 4",
  })
  void inferenceServiceDefaults(String path, String value) {
    assertThat(at(InferenceService.class, path).path("default").asText()).isEqualTo(value);
  }

  @Test
  void inferenceServiceRequiredFieldsAndPatterns() {
    assertThat(texts(at(InferenceService.class, "spec").path("required"))).containsExactly("modelRef");
    assertThat(texts(at(InferenceService.class, "spec.autoscaling").path("required"))).containsExactly("maxReplicas");
    assertThat(texts(at(InferenceService.class, "spec.autoscaling.metrics[]").path("required")))
        .containsExactlyInAnyOrder("type", "name");
    assertThat(texts(at(InferenceService.class, "spec.ropeScaling").path("required"))).containsExactly("type");
    assertThat(at(InferenceService.class, "spec.ropeScaling.factor").path("pattern").asText())
        .isEqualTo("^[0-9]+(\\.[0-9]+)?$");
    for (String path : List.of("spec.resources.cpu", "spec.resources.memory", "spec.resources.hostMemory",
        "spec.resources.gpuMemory", "spec.autoscaling.metrics[].targetAverageValue")) {
      assertThat(at(InferenceService.class, path).path("pattern").asText()).as(path).isEqualTo(QUANTITY);
    }
    assertThat(at(InferenceService.class, "spec.contextSize").path("format").asText()).isEqualTo("int32");
    assertThat(at(InferenceService.class, "status.lastUpdated").path("format").asText()).isEqualTo("date-time");
  }

  @Test
  void inferenceServiceCrossFieldRules() {
    JsonNode spec = rule(at(InferenceService.class, "spec"), 0);
    assertThat(spec.path("rule").asText())
        .isEqualTo("!has(self.runtime) || self.runtime != 'generic' || (has(self.image) && self.image.size() > 0)");
    assertThat(spec.path("message").asText()).contains("spec.image").contains("spec.runtime").contains("generic");
    assertThat(spec.path("fieldPath").asText()).isEqualTo(".image");

    JsonNode autoscaling = rule(at(InferenceService.class, "spec.autoscaling"), 0);
    assertThat(autoscaling.path("rule").asText())
        .isEqualTo("!has(self.minReplicas) || self.minReplicas <= self.maxReplicas");
    assertThat(autoscaling.path("message").asText()).contains("minReplicas").contains("maxReplicas");

    JsonNode metric = at(InferenceService.class, "spec.autoscaling.metrics[]");
    assertThat(metric.path("x-kubernetes-validations").findValuesAsText("rule")).containsExactlyInAnyOrder(
        "self.type != 'Pods' || has(self.targetAverageValue)",
        "self.type != 'Resource' || has(self.targetAverageUtilization)");
    assertThat(metric.path("x-kubernetes-validations").findValuesAsText("message")).containsExactlyInAnyOrder(
        "targetAverageValue is required for a Pods metric",
        "targetAverageUtilization is required for a Resource metric");

    // Reported by the controller as a condition instead of rejected: no rule on the speculative block.
    assertThat(at(InferenceService.class, "spec.vllmConfig.speculative").has("x-kubernetes-validations")).isFalse();
  }

  @Test
  void inferenceServiceStatusConditionsAreAMapByType() {
    JsonNode conditions = at(InferenceService.class, "status.conditions");
    assertThat(conditions.path("x-kubernetes-list-type").asText()).isEqualTo("map");
    assertThat(texts(conditions.path("x-kubernetes-list-map-keys"))).containsExactly("type");
    assertThat(texts(at(InferenceService.class, "status.conditions[].status").path("enum")))
        .containsExactlyInAnyOrder("True", "False", "Unknown");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "spec.args", "spec.autoscaling.metrics[].name", "spec.cacheTypeCustomK", "spec.cacheTypeCustomV",
      "spec.command", "spec.env", "spec.evictionProtection", "spec.extraArgs", "spec.flashAttention", "spec.image",
      "spec.imagePullSecrets", "spec.jinja", "spec.metadataOverrides", "spec.moeCPUOffload", "spec.noKvOffload",
      "spec.noWarmup", "spec.nodeSelector", "spec.personaPlexConfig.cpuOffload",
      "spec.personaPlexConfig.hfTokenSecretRef", "spec.personaPlexConfig.quantize4Bit", "spec.podAnnotations",
      "spec.podLabels", "spec.podSecurityContext", "spec.priorityClassName", "spec.probeOverrides.liveness",
      "spec.probeOverrides.readiness", "spec.probeOverrides.startup", "spec.reasoningBudgetMessage",
      "spec.runtimeClassName", "spec.securityContext", "spec.skipModelInit", "spec.tensorOverrides",
      "spec.tgiConfig.hfTokenSecretRef", "spec.tgiConfig.maxInputLength", "spec.tgiConfig.maxTotalTokens",
      "spec.tolerations", "spec.vllmConfig.enableChunkedPrefill", "spec.vllmConfig.enableExpertParallel",
      "spec.vllmConfig.enablePrefixCaching", "spec.vllmConfig.hfTokenSecretRef", "spec.vllmConfig.kvCacheCustomDtype",
      "spec.vllmConfig.maxModelLen", "spec.vllmConfig.speculative.enabled", "spec.vllmConfig.speculative.model",
      "spec.vllmConfig.tensorParallelSize", "status.desiredReplicas", "status.effectivePriority", "status.endpoint",
      "status.modelReady", "status.queuePosition", "status.readyReplicas", "status.replicas",
      "status.schedulingMessage", "status.schedulingStatus", "status.waitingFor"})
  void everySeedFieldIsPresentAndDocumented(String path) {
    assertThat(at(InferenceService.class, path).path("description").asText()).as(path).isNotBlank();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "spec.env[].valueFrom.secretKeyRef.key", "spec.env[].valueFrom.fileKeyRef.volumeName",
      "spec.imagePullSecrets[].name", "spec.personaPlexConfig.hfTokenSecretRef.key", "spec.podSecurityContext.fsGroup",
      "spec.podSecurityContext.seccompProfile.type", "spec.probeOverrides.liveness.httpGet.port",
      "spec.probeOverrides.readiness.exec.command", "spec.probeOverrides.startup.grpc.service",
      "spec.securityContext.capabilities.drop", "spec.tolerations[].tolerationSeconds"})
  void embeddedKubernetesTypesAreComplete(String path) {
    assertThat(at(InferenceService.class, path).isObject()).isTrue();
  }

  // ---- Model -----------------------------------------------------------------------------------------------------

  @Test
  void modelNamesScopeAndColumns() {
    JsonNode spec = Crds.crd(Model.class).path("spec");
    assertThat(spec.path("group").asText()).isEqualTo("inference.llmkube.dev");
    assertThat(spec.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(texts(spec.path("names").path("shortNames"))).containsExactly("mdl");
    assertThat(texts(spec.path("names").path("categories"))).containsExactly("modelplane");
    JsonNode version = spec.path("versions").get(0);
    assertThat(version.path("subresources").has("status")).isTrue();
    assertThat(version.path("subresources").has("scale")).isFalse();
    JsonNode columns = version.path("additionalPrinterColumns");
    assertThat(columns.findValuesAsText("name")).containsExactly("Phase", "Size", "Accelerator", "Arch", "Age");
    assertThat(columns.findValuesAsText("jsonPath")).containsExactly(".status.phase", ".status.size",
        ".spec.hardware.accelerator", ".status.gguf.architecture", ".metadata.creationTimestamp");
    assertThat(columns.get(3).path("priority").asInt()).isEqualTo(1);
    assertThat(texts(Crds.schema(Model.class).path("required"))).containsExactly("spec");
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "spec.format | gguf mlx safetensors pytorch custom",
      "spec.refreshPolicy | IfNotPresent OnChange",
      "spec.hardware.accelerator | cpu metal cuda rocm intel vulkan",
      "spec.hardware.gpu.vendor | nvidia amd intel",
      "spec.hardware.gpu.runtime | vulkan rocm",
      "spec.hardware.gpu.sharding.strategy | layer tensor row pipeline none",
      "status.phase | Pending Downloading Copying Ready Failed",
  })
  void modelEnums(String path, String values) {
    assertThat(texts(at(Model.class, path).path("enum"))).containsExactlyInAnyOrder(values.strip().split(" "));
  }

  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource({
      "spec.format, gguf",
      "spec.refreshPolicy, IfNotPresent",
      "spec.hardware.accelerator, cpu",
      "spec.hardware.gpu.vendor, nvidia",
      "spec.hardware.gpu.sharding.strategy, layer",
  })
  void modelDefaults(String path, String value) {
    assertThat(at(Model.class, path).path("default").asText()).isEqualTo(value);
  }

  @Test
  void modelBoundsPatternsAndRules() {
    assertThat(texts(at(Model.class, "spec").path("required"))).containsExactly("source");
    assertThat(at(Model.class, "spec.source").path("pattern").asText())
        .isEqualTo("^(https?|file|pvc|hf|s3)://.*|^/[^\\s]+$|^[a-zA-Z0-9][\\w\\-\\.\\/]+$");
    assertThat(at(Model.class, "spec.sha256").path("pattern").asText()).isEqualTo("^[a-fA-F0-9]{64}$");
    assertThat(at(Model.class, "spec.hardware.gpu.count").path("minimum").asInt()).isZero();
    assertThat(at(Model.class, "spec.hardware.gpu.count").path("maximum").asInt()).isEqualTo(8);
    assertThat(at(Model.class, "spec.hardware.gpu.layers").path("minimum").asInt()).isEqualTo(-1);
    assertThat(at(Model.class, "spec.hardware.memoryFraction").path("minimum").asInt()).isZero();
    assertThat(at(Model.class, "spec.hardware.memoryFraction").path("maximum").asInt()).isEqualTo(1);
    for (String path : List.of("spec.hardware.gpu.resourceName", "spec.hardware.gpu.tolerationKey")) {
      assertThat(at(Model.class, path).path("pattern").asText()).isEqualTo("^[a-z0-9.\\-]+/[a-z0-9._\\-]+$");
    }
    for (String path : List.of("spec.resources.cpu", "spec.resources.memory", "spec.hardware.gpu.memory",
        "spec.hardware.memoryBudget")) {
      assertThat(at(Model.class, path).path("pattern").asText()).as(path).isEqualTo(QUANTITY);
    }
    assertThat(at(Model.class, "spec.sourceSecretRef.name").path("default").isTextual()).isTrue();
    assertThat(at(Model.class, "spec.sourceSecretRef.name").path("default").asText()).isEmpty();

    JsonNode claims = at(Model.class, "spec.hardware.gpu.resourceClaims");
    assertThat(claims.path("maxItems").asInt()).isEqualTo(16);
    assertThat(texts(claims.path("items").path("required"))).containsExactly("name");
    assertThat(rule(claims, 0).path("rule").asText())
        .isEqualTo("self.all(c, has(c.resourceClaimName) != has(c.resourceClaimTemplateName))");
    JsonNode gpu = rule(at(Model.class, "spec.hardware.gpu"), 0);
    assertThat(gpu.path("rule").asText())
        .isEqualTo("!(has(self.resourceName) && has(self.resourceClaims) && self.resourceClaims.size() > 0)");
    assertThat(gpu.path("message").asText()).contains("resourceName").contains("resourceClaims");

    for (String path : List.of("status.gguf.contextLength", "status.gguf.tensorCount", "status.sourceContentLength")) {
      assertThat(at(Model.class, path).path("format").asText()).as(path).isEqualTo("int64");
    }
    assertThat(at(Model.class, "status.gguf.fileVersion").path("format").asText()).isEqualTo("int32");
    assertThat(at(Model.class, "status.lastRevalidated").path("format").asText()).isEqualTo("date-time");
    assertThat(at(Model.class, "status.conditions").path("x-kubernetes-list-type").asText()).isEqualTo("map");
  }

  // ---- Manifests -------------------------------------------------------------------------------------------------

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"inference.llmkube.dev_inferenceservices.yaml", "inference.llmkube.dev_models.yaml"})
  void fullManifestValidatesAndRoundTrips(String name) {
    Path file = Crds.repoRoot().resolve("api/src/test/resources/full").resolve(name);
    List<JsonNode> docs = Manifests.documents(file);
    assertThat(docs).hasSize(1);
    JsonNode doc = docs.get(0);
    Class<? extends HasMetadata> type = Manifests.classFor(doc).orElseThrow();
    assertThat(SchemaValidator.validate(Crds.schema(type), doc)).isEmpty();
    HasMetadata typed = SERIALIZATION.convertValue(doc, type);
    JsonNode back = SERIALIZATION.unmarshal(SERIALIZATION.asJson(typed), JsonNode.class);
    assertThat(back).isEqualTo(SERIALIZATION.unmarshal(doc.toString(), JsonNode.class));
  }

  @Test
  void lowerCaseAttentionBackendsKeepTheirSpelling() {
    for (VllmAttentionBackend backend : VllmAttentionBackend.values()) {
      String json = SERIALIZATION.asJson(backend);
      assertThat(SERIALIZATION.unmarshal(json, VllmAttentionBackend.class)).isEqualTo(backend);
    }
    assertThat(SERIALIZATION.asJson(VllmAttentionBackend.FLASHINFER_LOWER)).isEqualTo("\"flashinfer\"");
  }

  private static JsonNode rule(JsonNode schema, int index) {
    JsonNode rules = schema.path("x-kubernetes-validations");
    assertThat(rules.size()).as("validation rules").isGreaterThan(index);
    return rules.get(index);
  }

  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
