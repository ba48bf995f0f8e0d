package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.SecretKeySelector;
import java.util.List;

/**
 * Settings for the SGLang runtime ({@code python3 -m sglang.launch_server}). Each set field becomes the SGLang flag
 * named below; unset fields leave SGLang's own defaults.
 *
 * @param tensorParallelSize GPUs one replica is split across, at least 1 ({@code --tp}). When unset and the pod has
 *     several GPUs, their count is used.
 * @param dataParallelSize Data-parallel workers inside one server, at least 1 ({@code --dp}); never derived
 *     automatically. Only the in-process setting: replicas of the InferenceService do not coordinate with each other.
 * @param expertParallelSize GPUs over which mixture-of-experts experts are spread, at least 1 ({@code --ep}); never
 *     derived automatically.
 * @param contextLength Longest context in tokens, at least 128 ({@code --context-length}).
 * @param memFractionStatic Fraction of GPU memory, 0.1 to 0.99, reserved for weights and KV cache
 *     ({@code --mem-fraction-static}). Needs a GPU.
 * @param quantization Quantisation method passed unchecked ({@code --quantization}), for example {@code fp8},
 *     {@code awq}, {@code gptq} or {@code modelopt}.
 * @param kvCacheDtype KV cache element type ({@code --kv-cache-dtype}); {@code auto} by default, which follows the
 *     model's data type. For a type outside this list use {@code kvCacheCustomDtype}.
 * @param kvCacheCustomDtype KV cache type passed to SGLang unchecked ({@code --kv-cache-dtype}); wins over
 *     {@code kvCacheDtype}.
 * @param chunkedPrefillSize Tokens per chunk when long prompts are prefilled in chunks, at least 512
 *     ({@code --chunked-prefill-size}).
 * @param maxRunningRequests Most requests processed concurrently, at least 1 ({@code --max-running-requests}); the
 *     SGLang counterpart of {@code parallelSlots}.
 * @param enablePrefixCaching Turns on RadixAttention's automatic reuse of shared prompt prefixes
 *     ({@code --enable-prefix-caching}), which helps agents that resend long system prompts and tool definitions.
 * @param attentionBackend Attention kernel implementation ({@code --attention-backend}).
 * @param loraModules LoRA adapters as {@code name=path} or as a JSON object with {@code name} and {@code path}
 *     ({@code --lora-paths}). Superseded by {@code loraAdapters}, which wins when both name the same adapter.
 * @param loraAdapters LoRA adapters loaded at start-up ({@code --lora-paths}).
 * @param loraTargetModules Modules LoRA adapters may apply to, for example {@code q_proj}
 *     ({@code --lora-target-modules}).
 * @param maxLoraRank Highest LoRA rank accepted when adapters load, at least 1 ({@code --max-lora-rank}).
 * @param speculative Speculative decoding.
 * @param toolCallParser Format tool calls are extracted from ({@code --tool-call-parser}).
 * @param reasoningParser Format the reasoning of thinking models is extracted from ({@code --reasoning-parser}).
 * @param chatTemplate Chat template replacing the model's own ({@code --chat-template}).
 * @param trustRemoteCode Allows running code shipped in the model's Hugging Face repository
 *     ({@code --trust-remote-code}).
 * @param skipTokenizerInit Skips loading the tokenizer at start-up ({@code --skip-tokenizer-init}), for example for
 *     prefill-only servers.
 * @param logLevel Server log level ({@code --log-level}).
 * @param hfTokenSecretRef Secret key holding a Hugging Face token, exposed to SGLang as {@code HF_TOKEN} for gated or
 *     private models.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SglangConfig(
    @Min(1) Integer tensorParallelSize,
    @Min(1) Integer dataParallelSize,
    @Min(1) Integer expertParallelSize,
    @Min(128) Integer contextLength,
    @Min(0.1) @Max(0.99) Double memFractionStatic,
    String quantization,
    @Default("auto") SglangKvCacheDtype kvCacheDtype,
    String kvCacheCustomDtype,
    @Min(512) Integer chunkedPrefillSize,
    @Min(1) Integer maxRunningRequests,
    Boolean enablePrefixCaching,
    SglangAttentionBackend attentionBackend,
    List<String> loraModules,
    List<SglangLoraAdapter> loraAdapters,
    List<String> loraTargetModules,
    @Min(1) Integer maxLoraRank,
    SglangSpeculativeConfig speculative,
    SglangToolCallParser toolCallParser,
    SglangReasoningParser reasoningParser,
    String chatTemplate,
    Boolean trustRemoteCode,
    Boolean skipTokenizerInit,
    SglangLogLevel logLevel,
    SecretKeySelector hfTokenSecretRef) {
}
