package dev.modelplane.api.llmkube;

import static dev.modelplane.api.testing.Crds.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.llmkube.v1alpha1.CachePersistence;
import dev.modelplane.api.llmkube.v1alpha1.GpuSharingMode;
import dev.modelplane.api.llmkube.v1alpha1.InferenceRuntime;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ServingMode;
import dev.modelplane.api.llmkube.v1alpha1.SglangReasoningParser;
import dev.modelplane.api.llmkube.v1alpha1.SglangSpeculativeAlgorithm;
import dev.modelplane.api.llmkube.v1alpha1.SglangToolCallParser;
import dev.modelplane.api.llmkube.v1alpha1.SpeculativeDecodingType;
import dev.modelplane.api.llmkube.v1alpha1.VllmAttentionBackend;
import dev.modelplane.api.llmkube.v1alpha1.VllmQuantization;
import dev.modelplane.api.testing.Crds;
import dev.modelplane.api.testing.Manifests;
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
    // Not upstream's isvc, which OME's InferenceService keeps: a short name shared by two kinds is ambiguous.
    assertThat(texts(spec.path("names").path("shortNames"))).containsExactly("lisvc");
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
      "spec.endpoint.nodePort, 30000, 32767",
      "spec.speculativeDecoding.pMin, 0, 1",
      "spec.sglangConfig.memFractionStatic, 0.1, 0.99",
      "spec.sglangConfig.speculative.acceptThresholdSingle, 0, 1",
      "spec.sglangConfig.speculative.acceptThresholdAcc, 0, 1",
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
      "spec.maxPodLifetimeSeconds, 1",
      "spec.maxPodLifetimeIdleTimeoutSeconds, 0",
      "spec.revisionHistoryLimit, 0",
      "spec.rolloutPolicy.idleTimeoutSeconds, 0",
      "spec.resources.gpuSharing.memoryLimitGiB, 1",
      "spec.speculativeDecoding.nDraftMax, 1",
      "spec.sglangConfig.tensorParallelSize, 1",
      "spec.sglangConfig.dataParallelSize, 1",
      "spec.sglangConfig.expertParallelSize, 1",
      "spec.sglangConfig.contextLength, 128",
      "spec.sglangConfig.chunkedPrefillSize, 512",
      "spec.sglangConfig.maxRunningRequests, 1",
      "spec.sglangConfig.maxLoraRank, 1",
      "spec.sglangConfig.speculative.numSteps, 1",
      "spec.sglangConfig.speculative.eagleTopK, 1",
      "spec.sglangConfig.speculative.numDraftTokens, 1",
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
      "spec.runtime | llamacpp llamacpp-router personaplex vllm tgi sglang generic",
      "spec.priority | critical high normal low batch",
      "spec.ropeScaling.type | linear yarn longrope",
      "spec.endpoint.type | ClusterIP NodePort LoadBalancer",
      "spec.autoscaling.metrics[].type | Pods Resource",
      "spec.tgiConfig.dtype | float16 bfloat16",
      "spec.tgiConfig.quantize | bitsandbytes gptq awq eetq",
      "spec.vllmConfig.dtype | auto float16 bfloat16",
      "spec.vllmConfig.kvCacheDtype | auto fp8_e5m2 fp8_e4m3",
      "spec.vllmConfig.quantization | awq gptq squeezellm fp8 nvfp4 mxfp4 compressed-tensors",
      "spec.vllmConfig.attentionBackend | FLASH_ATTN FLASHINFER XFORMERS flashinfer flash_attn xformers torch_sdpa",
      "status.phase | Pending Creating Progressing Ready WaitingForGPU Stopped Suspended Failed",
      "spec.mode | chat embedding rerank",
      "spec.modelCache.persistence | Cached Ephemeral",
      "spec.resources.gpuSharing.mode | exclusive shared partitioned",
      "spec.slo.indicator | availability latency",
      "spec.speculativeDecoding.type | none disabled mtp draft draft-simple draft-eagle3 draft-mtp draft-dflash "
          + "draft-dspark ngram-simple ngram-map-k ngram-map-k4v ngram-mod ngram-cache",
      "spec.sglangConfig.attentionBackend | flashinfer flash_attn torch_native",
      "spec.sglangConfig.kvCacheDtype | auto fp8_e5m2 fp8_e4m3",
      "spec.sglangConfig.logLevel | debug info warning error",
      "spec.sglangConfig.reasoningParser | qwen3 deepseek-r1",
      "spec.sglangConfig.toolCallParser | llama3 qwen3 qwen25 hermes functionary mistral",
      "spec.sglangConfig.speculative.algorithm | EAGLE EAGLE3 Medusa",
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
      "spec.suspend, false",
      "spec.disruption.protectStartup, true",
      "spec.rolloutPolicy.idleTimeoutSeconds, 300",
      "spec.resources.gpuSharing.mode, exclusive",
      "spec.slo.indicator, availability",
      "spec.slo.window, 28d",
      "spec.sglangConfig.kvCacheDtype, auto",
      "spec.sglangConfig.speculative.numDraftTokens, 4",
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
  void upstreamOnlyFieldsRequiredFieldsFormatsAndLengths() {
    assertThat(texts(at(InferenceService.class, "spec.speculativeDecoding").path("required"))).containsExactly("type");
    assertThat(texts(at(InferenceService.class, "spec.slo").path("required"))).containsExactly("objective");
    assertThat(texts(at(InferenceService.class, "spec.endpoint.gateway").path("required")))
        .containsExactly("gatewayRef");
    assertThat(texts(at(InferenceService.class, "spec.endpoint.gateway.gatewayRef").path("required")))
        .containsExactly("name");
    assertThat(texts(at(InferenceService.class, "spec.sglangConfig.loraAdapters[]").path("required")))
        .containsExactlyInAnyOrder("name", "path");
    for (String path : List.of("spec.sglangConfig.loraAdapters[].name", "spec.sglangConfig.loraAdapters[].path")) {
      assertThat(at(InferenceService.class, path).path("minLength").asInt()).as(path).isEqualTo(1);
    }
    for (String path : List.of("spec.modelCache.claimName", "spec.speculativeDecoding.draftModel")) {
      assertThat(at(InferenceService.class, path).path("minLength").asInt()).as(path).isEqualTo(1);
      assertThat(at(InferenceService.class, path).path("maxLength").asInt()).as(path).isEqualTo(253);
    }
    // Upstream's own, looser quantity pattern on this one field, so every manifest upstream accepts passes.
    assertThat(at(InferenceService.class, "spec.resources.ephemeralStorage").path("pattern").asText())
        .isEqualTo("^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$");
    for (String path : List.of("spec.slo.objective", "spec.slo.latencyThreshold")) {
      assertThat(at(InferenceService.class, path).path("pattern").asText()).as(path).isEqualTo("^[0-9]+(\\.[0-9]+)?$");
    }
    assertThat(at(InferenceService.class, "spec.slo.window").path("pattern").asText()).isEqualTo("^[0-9]+[mhdw]$");
    JsonNode bits = at(InferenceService.class, "spec.turboQuantBits");
    assertThat(bits.path("type").asText()).isEqualTo("integer");
    assertThat(bits.path("enum").toString()).isEqualTo("[3,6,8]");
    for (String path : List.of("spec.maxPodLifetimeSeconds", "spec.maxPodLifetimeIdleTimeoutSeconds")) {
      assertThat(at(InferenceService.class, path).path("format").asText()).as(path).isEqualTo("int64");
    }
    for (String path : List.of("spec.suspend", "spec.disruption.protectAlways", "spec.rolloutPolicy.force",
        "spec.rolloutPolicy.waitForIdle", "spec.endpoint.gateway.enabled", "status.gateway.routeReady")) {
      assertThat(at(InferenceService.class, path).path("type").asText()).as(path).isEqualTo("boolean");
    }
    for (String path : List.of("status.acceleration.layersOffloaded", "status.acceleration.layersTotal")) {
      assertThat(at(InferenceService.class, path).path("format").asText()).as(path).isEqualTo("int32");
    }
    // Upstream reports the resolved mode as free text.
    assertThat(at(InferenceService.class, "status.mode").has("enum")).isFalse();
  }

  @Test
  void upstreamOnlyCrossFieldRules() {
    assertThat(rules(at(InferenceService.class, "spec.speculativeDecoding"))).containsExactly(
        "!(self.type in ['draft','draft-simple','draft-eagle3','draft-dflash','draft-dspark']) || "
            + "((has(self.draftModelRef) && self.draftModelRef.size() > 0) || (has(self.draftModel) && "
            + "self.draftModel.size() > 0))",
        "(self.type in ['draft','draft-simple','draft-eagle3','draft-dflash','draft-dspark','draft-mtp']) || "
            + "((!has(self.draftModelRef) || self.draftModelRef.size() == 0) && (!has(self.draftModel) || "
            + "self.draftModel.size() == 0))",
        "!((has(self.draftModelRef) && self.draftModelRef.size() > 0) && (has(self.draftModel) && "
            + "self.draftModel.size() > 0))");
    assertThat(at(InferenceService.class, "spec.speculativeDecoding").path("x-kubernetes-validations")
        .findValuesAsText("message")).allSatisfy(m -> assertThat(m).contains("draft"));
    assertThat(rules(at(InferenceService.class, "spec.modelCache"))).containsExactly(
        "!(has(self.persistence) && self.persistence == 'Ephemeral' && has(self.claimName))");
    assertThat(rule(at(InferenceService.class, "spec.modelCache"), 0).path("message").asText())
        .contains("claimName").contains("Ephemeral");
    assertThat(rules(at(InferenceService.class, "spec.resources.gpuSharing"))).containsExactly(
        "!has(self.mode) || self.mode != 'partitioned' || (has(self.profile) && self.profile.size() > 0)",
        "!has(self.profile) || self.profile.size() == 0 || (has(self.mode) && self.mode == 'partitioned')",
        "!has(self.memoryLimitGiB) || (has(self.mode) && self.mode == 'shared')");
    assertThat(at(InferenceService.class, "spec.resources.gpuSharing").path("x-kubernetes-validations")
        .findValuesAsText("message")).containsExactly("profile is required when mode is partitioned",
        "profile is only valid when mode is partitioned", "memoryLimitGiB is only valid when mode is shared");
    assertThat(rules(at(InferenceService.class, "spec.slo")))
        .containsExactly("self.indicator != 'latency' || has(self.latencyThreshold)");
    assertThat(rules(at(InferenceService.class, "spec.slo.objective")))
        .containsExactly("double(self) >= 50.0 && double(self) <= 99.999");
    assertThat(rule(at(InferenceService.class, "spec.slo.objective"), 0).path("message").asText())
        .isEqualTo("objective must be a number between 50 and 99.999");
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
      "spec.affinity", "spec.bindAddress", "spec.disruption", "spec.disruption.protectAlways",
      "spec.disruption.protectStartup", "spec.endpoint.gateway", "spec.endpoint.gateway.enabled",
      "spec.endpoint.gateway.gatewayRef", "spec.endpoint.gateway.gatewayRef.name",
      "spec.endpoint.gateway.gatewayRef.namespace", "spec.endpoint.gateway.modelName", "spec.endpoint.nodePort",
      "spec.extraVolumes", "spec.extraVolumeMounts", "spec.hotCacheMaxSize", "spec.maxPodLifetimeSeconds",
      "spec.maxPodLifetimeIdleTimeoutSeconds", "spec.mode", "spec.modelCache", "spec.modelCache.claimName",
      "spec.modelCache.persistence", "spec.pagedSSDCacheDir", "spec.pagedSSDCacheMaxSize",
      "spec.resources.ephemeralStorage", "spec.resources.gpuSharing", "spec.resources.gpuSharing.memoryLimitGiB",
      "spec.resources.gpuSharing.mode", "spec.resources.gpuSharing.profile", "spec.revisionHistoryLimit",
      "spec.rolloutPolicy", "spec.rolloutPolicy.force", "spec.rolloutPolicy.idleTimeoutSeconds",
      "spec.rolloutPolicy.waitForIdle", "spec.sglangConfig", "spec.sglangConfig.chatTemplate",
      "spec.sglangConfig.enablePrefixCaching", "spec.sglangConfig.hfTokenSecretRef",
      "spec.sglangConfig.kvCacheCustomDtype", "spec.sglangConfig.loraAdapters",
      "spec.sglangConfig.loraAdapters[].name", "spec.sglangConfig.loraAdapters[].path",
      "spec.sglangConfig.loraModules", "spec.sglangConfig.loraTargetModules", "spec.sglangConfig.quantization",
      "spec.sglangConfig.skipTokenizerInit", "spec.sglangConfig.speculative",
      "spec.sglangConfig.speculative.draftModelPath", "spec.sglangConfig.speculative.enabled",
      "spec.sglangConfig.trustRemoteCode", "spec.slo", "spec.slo.latencyThreshold", "spec.slo.name",
      "spec.slo.objective", "spec.slo.window", "spec.speculativeDecoding", "spec.speculativeDecoding.draftModel",
      "spec.speculativeDecoding.draftModelRef", "spec.speculativeDecoding.nDraftMax",
      "spec.speculativeDecoding.pMin", "spec.speculativeDecoding.type", "spec.suspend",
      "spec.topologySpreadConstraints", "spec.turboQuantBits", "status.acceleration", "status.acceleration.device",
      "status.acceleration.layersOffloaded", "status.acceleration.layersTotal", "status.gateway",
      "status.gateway.authEnabled", "status.gateway.endpoint", "status.gateway.modelName",
      "status.gateway.routeReady", "status.mode"})
  void everyUpstreamOnlyFieldIsPresentAndDocumented(String path) {
    assertThat(at(InferenceService.class, path).path("description").asText()).as(path).isNotBlank();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {
      "spec.env[].valueFrom.secretKeyRef.key", "spec.env[].valueFrom.fileKeyRef.volumeName",
      "spec.imagePullSecrets[].name", "spec.personaPlexConfig.hfTokenSecretRef.key", "spec.podSecurityContext.fsGroup",
      "spec.podSecurityContext.seccompProfile.type", "spec.probeOverrides.liveness.httpGet.port",
      "spec.probeOverrides.readiness.exec.command", "spec.probeOverrides.startup.grpc.service",
      "spec.securityContext.capabilities.drop", "spec.tolerations[].tolerationSeconds",
      "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[].matchExpressions",
      "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[].podAffinityTerm.topologyKey",
      "spec.topologySpreadConstraints[].maxSkew", "spec.topologySpreadConstraints[].labelSelector.matchLabels",
      "spec.extraVolumes[].persistentVolumeClaim.claimName", "spec.extraVolumes[].emptyDir.sizeLimit",
      "spec.extraVolumeMounts[].mountPath", "spec.extraVolumeMounts[].readOnly",
      "spec.sglangConfig.hfTokenSecretRef.key"})
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

  @Test
  void newSamplesReadAsTypedObjects() {
    Path samples = Crds.repoRoot().resolve("deploy/samples/llmkube");
    InferenceService sglang = typed(samples.resolve("inferenceservice-sglang.yaml"));
    assertThat(sglang.getSpec().runtime()).isEqualTo(InferenceRuntime.SGLANG);
    assertThat(sglang.getSpec().sglangConfig().speculative().algorithm()).isEqualTo(SglangSpeculativeAlgorithm.EAGLE3);
    assertThat(sglang.getSpec().sglangConfig().toolCallParser()).isEqualTo(SglangToolCallParser.QWEN3);
    assertThat(sglang.getSpec().endpoint().gateway().gatewayRef().name()).isEqualTo("ai-gateway");
    assertThat(sglang.getSpec().extraVolumeMounts()).extracting(m -> m.getMountPath())
        .containsExactly("/drafts", "/adapters");

    InferenceService spec = typed(samples.resolve("inferenceservice-speculative-modelcache.yaml"));
    assertThat(spec.getSpec().speculativeDecoding().type()).isEqualTo(SpeculativeDecodingType.DRAFT);
    assertThat(spec.getSpec().speculativeDecoding().nDraftMax()).isEqualTo(3);
    assertThat(spec.getSpec().speculativeDecoding().pMin()).isEqualTo(0.75);
    assertThat(spec.getSpec().modelCache().claimName()).isEqualTo("team-model-cache");
    assertThat(spec.getSpec().topologySpreadConstraints().get(0).getMaxSkew()).isEqualTo(1);

    InferenceService suspended = typed(samples.resolve("inferenceservice-suspended.yaml"));
    assertThat(suspended.getSpec().suspend()).isTrue();
    assertThat(suspended.getSpec().replicas()).isEqualTo(2);
    assertThat(suspended.getSpec().mode()).isEqualTo(ServingMode.EMBEDDING);
    assertThat(suspended.getSpec().modelCache().persistence()).isEqualTo(CachePersistence.EPHEMERAL);
    assertThat(suspended.getSpec().resources().gpuSharing().mode()).isEqualTo(GpuSharingMode.PARTITIONED);
    assertThat(suspended.getSpec().maxPodLifetimeSeconds()).isEqualTo(86400L);
  }

  @Test
  void wireNamesOfTheNewEnumsAreUpstreams() {
    assertThat(SERIALIZATION.asJson(InferenceRuntime.LLAMACPP_ROUTER)).isEqualTo("\"llamacpp-router\"");
    assertThat(SERIALIZATION.asJson(InferenceServicePhase.SUSPENDED)).isEqualTo("\"Suspended\"");
    assertThat(SERIALIZATION.asJson(VllmQuantization.MXFP4)).isEqualTo("\"mxfp4\"");
    assertThat(SERIALIZATION.asJson(SpeculativeDecodingType.NGRAM_MAP_K4V)).isEqualTo("\"ngram-map-k4v\"");
    assertThat(SERIALIZATION.asJson(SglangReasoningParser.DEEPSEEK_R1)).isEqualTo("\"deepseek-r1\"");
    assertThat(SERIALIZATION.asJson(SglangSpeculativeAlgorithm.MEDUSA)).isEqualTo("\"Medusa\"");
  }

  private static InferenceService typed(Path file) {
    return SERIALIZATION.convertValue(Manifests.documents(file).get(0), InferenceService.class);
  }

  @Test
  void lowerCaseAttentionBackendsKeepTheirSpelling() {
    for (VllmAttentionBackend backend : VllmAttentionBackend.values()) {
      String json = SERIALIZATION.asJson(backend);
      assertThat(SERIALIZATION.unmarshal(json, VllmAttentionBackend.class)).isEqualTo(backend);
    }
    assertThat(SERIALIZATION.asJson(VllmAttentionBackend.FLASHINFER_LOWER)).isEqualTo("\"flashinfer\"");
  }

  private static List<String> rules(JsonNode schema) {
    return schema.path("x-kubernetes-validations").findValuesAsText("rule");
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
