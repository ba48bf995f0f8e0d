package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.CachePersistence;
import dev.modelplane.api.llmkube.v1alpha1.InferenceRuntime;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.SglangConfig;
import dev.modelplane.api.llmkube.v1alpha1.SpeculativeDecoding;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.llmkube.runtime.GpuPlan;
import dev.modelplane.operator.llmkube.runtime.LlamaCppRenderer;
import dev.modelplane.operator.llmkube.runtime.RuntimeRenderer;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.scheduling.PriorityTier;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Semantic checks of an InferenceService against its Model and the cluster: the things the CRD schema lets through.
 * Fatal problems stop the service (phase Failed); the others are served around (a flag is dropped, a block ignored)
 * and reported as Degraded. Pure.
 */
public final class IsvcValidator {
  private static final Pattern DNS_1035 = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");

  private IsvcValidator() {
  }

  /** Problems of a service whose Model was found (without a draft Model). */
  public static List<FieldProblem> validate(InferenceService isvc, Model model, ClusterFacts facts) {
    return validate(isvc, model, null, facts);
  }

  /** Problems of a service whose Model (and draft Model, when referenced and found) were found. */
  public static List<FieldProblem> validate(InferenceService isvc, Model model, Model draft, ClusterFacts facts) {
    List<FieldProblem> problems = new ArrayList<>();
    InferenceServiceSpec spec = isvc.getSpec();
    InferenceRuntime runtime = spec.runtime() == null ? InferenceRuntime.LLAMACPP : spec.runtime();
    String runtimeName = EnumValues.of(runtime);
    String serviceName = ServingPlan.serviceName(isvc.getMetadata().getName());
    if (serviceName.length() > 63 || !DNS_1035.matcher(serviceName).matches()) {
      problems.add(FieldProblem.fatal("metadata.name", "InvalidName", "names the Service and the pod labels, so it "
          + "must be a DNS-1035 label (lower-case letters, digits and '-', starting with a letter) of at most 63 "
          + "characters, not " + isvc.getMetadata().getName()));
    }
    if ((runtime == InferenceRuntime.GENERIC || runtime == InferenceRuntime.PERSONAPLEX)
        && (spec.image() == null || spec.image().isBlank())) {
      problems.add(FieldProblem.fatal("spec.image", "MissingImage", "required for runtime " + runtimeName
          + ", which has no default image"));
    }
    ignoredBlocks(spec, runtime, runtimeName, problems);
    gpuChecks(spec, model, facts, problems);
    llamaCppChecks(spec, runtime, problems);
    if (spec.vllmConfig() != null && runtime == InferenceRuntime.VLLM && spec.vllmConfig().speculative() != null
        && Boolean.TRUE.equals(spec.vllmConfig().speculative().enabled())
        && (spec.vllmConfig().speculative().model() == null || spec.vllmConfig().speculative().model().isBlank())) {
      problems.add(FieldProblem.warning("spec.vllmConfig.speculative.model", "SpeculativeModelMissing",
          "required when speculative decoding is enabled, so the service runs without it"));
    }
    if (spec.autoscaling() != null && (spec.autoscaling().metrics() == null || spec.autoscaling().metrics().isEmpty())
        && (runtime == InferenceRuntime.GENERIC || runtime == InferenceRuntime.PERSONAPLEX)) {
      problems.add(FieldProblem.warning("spec.autoscaling.metrics", "NoDefaultMetric", "runtime " + runtimeName
          + " has no default autoscaling metric, so no HorizontalPodAutoscaler is created until one is listed"));
    }
    priorityChecks(spec, facts, problems);
    speculativeChecks(spec, runtime, runtimeName, model, draft, problems);
    newerFieldChecks(spec, runtime, model, problems);
    return problems;
  }

  private static void speculativeChecks(InferenceServiceSpec spec, InferenceRuntime runtime, String runtimeName,
      Model model, Model draft, List<FieldProblem> problems) {
    SpeculativeDecoding sd = spec.speculativeDecoding();
    if (sd != null && runtime != InferenceRuntime.LLAMACPP) {
      problems.add(ignored("spec.speculativeDecoding", "only the llamacpp runtime reads it (vLLM and SGLang have "
          + "their own speculative blocks)", runtimeName));
      return;
    }
    if (sd == null) {
      return;
    }
    if (sd.draftModel() != null && !sd.draftModel().isBlank()
        && (model.getSpec().files() == null || !model.getSpec().files().contains(sd.draftModel()))) {
      problems.add(FieldProblem.warning("spec.speculativeDecoding.draftModel", "DraftNotStaged", sd.draftModel()
          + " is not one of Model " + spec.modelRef() + "'s spec.files, so it is not staged and the server runs "
          + "without a draft model"));
    }
    if (draft != null) {
      try {
        if (ModelLayout.of(draft, "https://huggingface.co").staging() == ModelLayout.Staging.RUNTIME) {
          problems.add(FieldProblem.warning("spec.speculativeDecoding.draftModelRef", "DraftNotAFile", "Model "
              + sd.draftModelRef() + " is a Hugging Face repository the runtime resolves, but llama.cpp needs a "
              + "draft file (-md), so the server runs without one"));
        }
      } catch (IllegalArgumentException e) {
        // the draft Model's own status reports an invalid source
      }
    }
  }

  private static void newerFieldChecks(InferenceServiceSpec spec, InferenceRuntime runtime, Model model,
      List<FieldProblem> problems) {
    SglangConfig sg = spec.sglangConfig();
    if (sg != null && runtime == InferenceRuntime.SGLANG) {
      var sp = sg.speculative();
      if (sp != null && Boolean.TRUE.equals(sp.enabled()) && (sp.algorithm() == null || sp.draftModelPath() == null
          || sp.draftModelPath().isBlank())) {
        problems.add(FieldProblem.warning("spec.sglangConfig.speculative", "SpeculativeMissingConfig", "enabled "
            + "without an algorithm and a draftModelPath, so the speculative flags are left out"));
      }
      if (sg.memFractionStatic() != null && !GpuPlan.of(spec, model).present()) {
        problems.add(FieldProblem.warning("spec.sglangConfig.memFractionStatic", "IgnoredField",
            "needs a GPU, and the pods have none, so it is left out"));
      }
    }
    if (spec.modelCache() != null && spec.modelCache().persistence() == CachePersistence.EPHEMERAL
        && (spec.resources() == null || spec.resources().ephemeralStorage() == null)) {
      problems.add(FieldProblem.warning("spec.resources.ephemeralStorage", "MissingEphemeralStorage", "weights go to "
          + "an emptyDir (modelCache.persistence: Ephemeral) whose size is not bounded or requested"));
    }
    if (spec.maxPodLifetimeIdleTimeoutSeconds() != null && (spec.rolloutPolicy() == null
        || !Boolean.TRUE.equals(spec.rolloutPolicy().waitForIdle()))) {
      problems.add(FieldProblem.warning("spec.maxPodLifetimeIdleTimeoutSeconds", "IgnoredField",
          "only applies with rolloutPolicy.waitForIdle; recycling does not wait for idle servers"));
    }
    if (spec.slo() != null && !IntegrationBuilder.sloSupported(spec.slo(),
        RuntimeRenderer.of(spec.runtime()).runtimeName())) {
      problems.add(FieldProblem.warning("spec.slo.indicator", "UnsupportedIndicator", "latency needs a "
          + "request-latency histogram, which only the vllm runtime exports, so no ServiceLevelObjective is created"));
    }
  }


  private static void ignoredBlocks(InferenceServiceSpec spec, InferenceRuntime runtime, String runtimeName,
      List<FieldProblem> problems) {
    if (spec.vllmConfig() != null && runtime != InferenceRuntime.VLLM) {
      problems.add(ignored("spec.vllmConfig", "only the vllm runtime reads it", runtimeName));
    }
    if (spec.tgiConfig() != null && runtime != InferenceRuntime.TGI) {
      problems.add(ignored("spec.tgiConfig", "only the tgi runtime reads it", runtimeName));
    }
    if (spec.sglangConfig() != null && runtime != InferenceRuntime.SGLANG) {
      problems.add(ignored("spec.sglangConfig", "only the sglang runtime reads it", runtimeName));
    }
    if (spec.personaPlexConfig() != null && runtime != InferenceRuntime.PERSONAPLEX) {
      problems.add(ignored("spec.personaPlexConfig", "only the personaplex runtime reads it", runtimeName));
    }
    if (spec.args() != null && !spec.args().isEmpty() && runtime != InferenceRuntime.GENERIC) {
      problems.add(ignored("spec.args", "only the generic runtime reads it (use spec.extraArgs)", runtimeName));
    }
    if (spec.extraArgs() != null && !spec.extraArgs().isEmpty()
        && (runtime == InferenceRuntime.GENERIC || runtime == InferenceRuntime.PERSONAPLEX)) {
      problems.add(ignored("spec.extraArgs", "runtime " + runtimeName + " does not read it"
          + (runtime == InferenceRuntime.GENERIC ? " (use spec.args)" : ""), runtimeName));
    }
    if (runtime != InferenceRuntime.LLAMACPP) {
      for (Map.Entry<String, Object> field : llamaCppOnlyFields(spec).entrySet()) {
        if (field.getValue() != null) {
          problems.add(ignored("spec." + field.getKey(), "only the llamacpp runtime reads it", runtimeName));
        }
      }
    }
  }

  private static Map<String, Object> llamaCppOnlyFields(InferenceServiceSpec spec) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("contextSize", spec.contextSize());
    fields.put("batchSize", spec.batchSize());
    fields.put("uBatchSize", spec.uBatchSize());
    fields.put("flashAttention", spec.flashAttention());
    fields.put("jinja", spec.jinja());
    fields.put("cacheTypeK", spec.cacheTypeK());
    fields.put("cacheTypeV", spec.cacheTypeV());
    fields.put("cacheTypeCustomK", spec.cacheTypeCustomK());
    fields.put("cacheTypeCustomV", spec.cacheTypeCustomV());
    fields.put("moeCPUOffload", spec.moeCPUOffload());
    fields.put("moeCPULayers", spec.moeCPULayers());
    fields.put("noKvOffload", spec.noKvOffload());
    fields.put("tensorOverrides", spec.tensorOverrides() == null || spec.tensorOverrides().isEmpty() ? null : 1);
    fields.put("metadataOverrides", spec.metadataOverrides() == null || spec.metadataOverrides().isEmpty() ? null
        : 1);
    fields.put("noWarmup", spec.noWarmup());
    fields.put("reasoningBudget", spec.reasoningBudget());
    fields.put("ropeScaling", spec.ropeScaling());
    return fields;
  }

  private static FieldProblem ignored(String field, String why, String runtimeName) {
    return FieldProblem.warning(field, "IgnoredField", "ignored with runtime " + runtimeName + ": " + why);
  }

  private static void gpuChecks(InferenceServiceSpec spec, Model model, ClusterFacts facts,
      List<FieldProblem> problems) {
    GpuPlan gpu = GpuPlan.of(spec, model);
    Integer requested = spec.resources() == null ? null : spec.resources().gpu();
    if (requested != null && requested > 0 && gpu.countSource() != null && gpu.countSource().startsWith("Model")
        && requested != gpu.count()) {
      problems.add(FieldProblem.warning("spec.resources.gpu", "GPUCountConflict", requested + " ignored: Model "
          + spec.modelRef() + " asks for " + gpu.count() + " (" + gpu.countSource().substring(6) + "), which wins"));
    }
    if (gpu.extendedResource() && facts.maxGpusPerNode() != null) {
      long max = facts.maxGpusPerNode().getOrDefault(gpu.resourceName(), 0L);
      if (gpu.count() > max) {
        String field = gpu.countSource().startsWith("Model") ? "spec.modelRef" : "spec.resources.gpu";
        problems.add(FieldProblem.warning(field, "ExceedsNodeCapacity", gpu.count() + " " + gpu.resourceName()
            + " per pod (" + gpu.countSource() + ") but " + (max == 0 ? "no node offers " + gpu.resourceName()
            : "the largest node has " + max) + ", so the pods wait until such a node joins"));
      }
    }
    if (gpu.count() > 1 && !gpu.layerSplit().isEmpty()) {
      List<Long> sizes = LlamaCppRenderer.parseSplit(gpu.layerSplit());
      if (sizes == null || sizes.size() != gpu.count()) {
        problems.add(FieldProblem.warning("spec.modelRef", "InvalidLayerSplit", "Model " + spec.modelRef()
            + " spec.hardware.gpu.sharding.layerSplit " + gpu.layerSplit() + " does not give one start-end range per "
            + "GPU (" + gpu.count() + "), so the layers are split evenly"));
      }
    }
  }

  private static void llamaCppChecks(InferenceServiceSpec spec, InferenceRuntime runtime,
      List<FieldProblem> problems) {
    if (runtime != InferenceRuntime.LLAMACPP) {
      return;
    }
    boolean memory = spec.resources() != null && (spec.resources().memory() != null
        || spec.resources().hostMemory() != null);
    if (!memory && (Boolean.TRUE.equals(spec.moeCPUOffload()) || Boolean.TRUE.equals(spec.noKvOffload())
        || (spec.moeCPULayers() != null && spec.moeCPULayers() > 0))) {
      problems.add(FieldProblem.warning("spec.resources.hostMemory", "MissingMemoryRequest", "experts or KV cache "
          + "are kept in system RAM (moeCPUOffload, moeCPULayers or noKvOffload) but no memory is requested, so the "
          + "scheduler cannot account for it"));
    }
    if (spec.reasoningBudgetMessage() != null && spec.reasoningBudget() == null) {
      problems.add(FieldProblem.warning("spec.reasoningBudgetMessage", "IgnoredField",
          "has no effect without spec.reasoningBudget"));
    }
  }

  private static void priorityChecks(InferenceServiceSpec spec, ClusterFacts facts, List<FieldProblem> problems) {
    if (facts.priorityClasses() == null) {
      return;
    }
    if (spec.priorityClassName() != null && !spec.priorityClassName().isBlank()) {
      if (!facts.priorityClasses().containsKey(spec.priorityClassName())) {
        problems.add(FieldProblem.warning("spec.priorityClassName", "PriorityClassNotFound", "PriorityClass "
            + spec.priorityClassName() + " does not exist, so no pod can be created until it does"));
      }
      return;
    }
    PriorityTier tier = PriorityTier.of(spec.priority());
    if (!facts.priorityClasses().containsKey(tier.className())) {
      problems.add(FieldProblem.warning("spec.priority", "PriorityClassNotFound", "PriorityClass "
          + tier.className() + " does not exist, so no pod can be created until deploy/operator/priority-classes.yaml "
          + "is applied or the operator runs with --create-priority-classes"));
    }
  }
}
