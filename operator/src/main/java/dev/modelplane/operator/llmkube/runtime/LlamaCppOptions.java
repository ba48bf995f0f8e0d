package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.RopeScaling;
import dev.modelplane.api.llmkube.v1alpha1.SpeculativeDecoding;
import java.util.List;

/**
 * llama.cpp server tuning, each field one or two flags of {@code llama-server}; null leaves the server's default.
 *
 * @param contextSize {@code --ctx-size}
 * @param batchSize {@code --batch-size}
 * @param uBatchSize {@code --ubatch-size}
 * @param flashAttention {@code --flash-attn on} (only with a GPU)
 * @param jinja {@code --jinja}
 * @param cacheTypeK {@code --cache-type-k}
 * @param cacheTypeV {@code --cache-type-v}
 * @param moeCPUOffload {@code --cpu-moe}
 * @param moeCPULayers {@code --n-cpu-moe}
 * @param noKvOffload {@code --no-kv-offload}
 * @param tensorOverrides one {@code --override-tensor} each
 * @param metadataOverrides one {@code --override-kv} each
 * @param noWarmup {@code --no-warmup}
 * @param reasoningBudget {@code --reasoning-budget}
 * @param reasoningBudgetMessage {@code --reasoning-budget-message}
 * @param ropeScaling RoPE context extension
 * @param speculativeDecoding speculative decoding with a draft model
 */
public record LlamaCppOptions(Integer contextSize, Integer batchSize, Integer uBatchSize, Boolean flashAttention,
    Boolean jinja, String cacheTypeK, String cacheTypeV, Boolean moeCPUOffload, Integer moeCPULayers,
    Boolean noKvOffload, List<String> tensorOverrides, List<String> metadataOverrides, Boolean noWarmup,
    Integer reasoningBudget, String reasoningBudgetMessage, RopeScaling ropeScaling,
    SpeculativeDecoding speculativeDecoding) {

  /** Every server default. */
  public static final LlamaCppOptions NONE = new LlamaCppOptions(null, null, null, null, null, null, null, null, null,
      null, null, null, null, null, null, null, null);
}
