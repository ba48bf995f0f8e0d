package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.SecretKeySelector;

/**
 * Settings for the vLLM runtime. Each set field becomes the vLLM flag named below; unset fields leave vLLM's own
 * defaults.
 *
 * @param tensorParallelSize GPUs one replica is split across ({@code --tensor-parallel-size}). When unset and the pod
 *     has several GPUs, their count is used.
 * @param maxModelLen Longest context in tokens ({@code --max-model-len}).
 * @param quantization Quantisation format of the checkpoint ({@code --quantization}).
 * @param dtype Weight data type ({@code --dtype}).
 * @param kvCacheDtype KV cache element type ({@code --kv-cache-dtype}); {@code auto} by default, which sends no
 *     flag. The 8-bit types roughly halve KV cache memory, which makes long contexts fit on small GPUs. For a type
 *     outside this list use {@code kvCacheCustomDtype}.
 * @param kvCacheCustomDtype KV cache type passed to vLLM unchecked, for versions with extra formats (such as
 *     TurboQuant's {@code turbo2}). The image must support it or vLLM will not start. Wins over {@code kvCacheDtype}.
 * @param enablePrefixCaching Caches shared prompt prefixes ({@code --enable-prefix-caching}), which shortens the time
 *     to first token when requests share a system prompt. Only true sends the flag.
 * @param enableChunkedPrefill Splits long prompts into chunks interleaved with decoding
 *     ({@code --enable-chunked-prefill}), so one large prompt does not stall other streams. Only true sends the flag.
 * @param maxNumBatchedTokens Most tokens processed in one step, at least 512 ({@code --max-num-batched-tokens}): the
 *     main throughput setting; too high risks running out of memory with long contexts.
 * @param attentionBackend Attention kernel implementation ({@code --attention-backend}); the vLLM version must
 *     support it.
 * @param speculative Speculative decoding with a draft model.
 * @param enableExpertParallel Spreads mixture-of-experts experts over the tensor-parallel GPUs instead of copying
 *     them to each ({@code --enable-expert-parallel}). Only useful for MoE models.
 * @param cpuOffloadGB Gigabytes of system RAM per GPU used to extend GPU memory, at least 0
 *     ({@code --cpu-offload-gb}); for weights that do not quite fit. Much slower on the offloaded part. Only applied
 *     when the pod has a GPU.
 * @param gpuMemoryUtilization Fraction of GPU memory vLLM may use, 0.1 to 0.99 ({@code --gpu-memory-utilization});
 *     vLLM's default is 0.9. Only applied when the pod has a GPU.
 * @param hfTokenSecretRef Secret key holding a Hugging Face token, exposed to vLLM as {@code HF_TOKEN} for gated or
 *     private models.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record VllmConfig(
    Integer tensorParallelSize,
    Integer maxModelLen,
    VllmQuantization quantization,
    VllmDtype dtype,
    @Default("auto") VllmKvCacheDtype kvCacheDtype,
    String kvCacheCustomDtype,
    Boolean enablePrefixCaching,
    Boolean enableChunkedPrefill,
    @Min(512) Integer maxNumBatchedTokens,
    VllmAttentionBackend attentionBackend,
    VllmSpeculativeConfig speculative,
    Boolean enableExpertParallel,
    @Min(0) Integer cpuOffloadGB,
    @Min(0.1) @Max(0.99) Double gpuMemoryUtilization,
    SecretKeySelector hfTokenSecretRef) {
}
