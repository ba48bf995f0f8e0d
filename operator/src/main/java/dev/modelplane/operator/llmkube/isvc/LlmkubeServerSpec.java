package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.api.llmkube.v1alpha1.KvCacheType;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.llmkube.runtime.LlamaCppOptions;
import dev.modelplane.operator.llmkube.runtime.ServerSpec;
import dev.modelplane.operator.llmkube.runtime.ServingModes;

/** An LLMKube InferenceService's spec as the runtime renderers read it. */
public final class LlmkubeServerSpec {
  private LlmkubeServerSpec() {
  }

  /** The server spec of an InferenceService: its flags, ports, mode, served name and per-runtime options. */
  public static ServerSpec of(InferenceServiceSpec spec) {
    return new ServerSpec(spec.image(), spec.command(), spec.args(), spec.env(), spec.extraArgs(),
        spec.bindAddress(), spec.containerPort(), spec.endpoint() == null ? null : spec.endpoint().port(),
        mode(spec), spec.modelRef(), spec.probeOverrides(), spec.parallelSlots(), llamaCpp(spec), spec.vllmConfig(),
        spec.sglangConfig(), spec.tgiConfig(), spec.personaPlexConfig());
  }

  /**
   * What the service serves: {@code spec.mode}, else inferred from {@code extraArgs} and {@code endpoint.path}
   * ({@link ServingModes#resolve}).
   */
  public static ServingModes.Mode mode(InferenceServiceSpec spec) {
    ServingModes.Mode declared = spec.mode() == null ? null : switch (spec.mode()) {
      case CHAT -> ServingModes.Mode.CHAT;
      case EMBEDDING -> ServingModes.Mode.EMBEDDING;
      case RERANK -> ServingModes.Mode.RERANK;
    };
    return ServingModes.resolve(declared, spec.extraArgs(), spec.endpoint() == null ? null : spec.endpoint().path());
  }

  private static LlamaCppOptions llamaCpp(InferenceServiceSpec spec) {
    return new LlamaCppOptions(spec.contextSize(), spec.batchSize(), spec.uBatchSize(), spec.flashAttention(),
        spec.jinja(), cacheType(spec.cacheTypeCustomK(), spec.cacheTypeK()),
        cacheType(spec.cacheTypeCustomV(), spec.cacheTypeV()), spec.moeCPUOffload(), spec.moeCPULayers(),
        spec.noKvOffload(), spec.tensorOverrides(), spec.metadataOverrides(), spec.noWarmup(), spec.reasoningBudget(),
        spec.reasoningBudgetMessage(), spec.ropeScaling(), spec.speculativeDecoding());
  }

  /** A custom cache type wins over the listed one. */
  private static String cacheType(String custom, KvCacheType standard) {
    return custom != null && !custom.isBlank() ? custom : standard == null ? null : EnumValues.of(standard);
  }
}
