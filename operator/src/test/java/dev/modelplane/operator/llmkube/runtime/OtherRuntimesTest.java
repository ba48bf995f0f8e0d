package dev.modelplane.operator.llmkube.runtime;

import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.PVC_MODEL;
import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.argv;
import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.input;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.InferenceRuntime;
import dev.modelplane.operator.llmkube.runtime.RuntimeCases.Case;
import io.fabric8.kubernetes.api.model.Container;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class OtherRuntimesTest {
  private static final String GPU2 = PVC_MODEL + "hardware:\n  gpu: {count: 2}\n";

  static Stream<Case> vllm() {
    return Stream.of(
        new Case("minimum", "modelRef: m\nruntime: vllm", PVC_MODEL,
            "/model-source/llama.gguf --port 8000 --host :: --served-model-name m"),
        new Case("Hugging Face id with a revision", "modelRef: m\nruntime: vllm", "source: hf://Qwen/Qwen3-8B@v1.0\n",
            "Qwen/Qwen3-8B --revision v1.0 --port 8000 --host :: --served-model-name m"),
        new Case("every vllmConfig field in declaration order", """
            modelRef: m
            runtime: vllm
            parallelSlots: 16
            vllmConfig:
              tensorParallelSize: 2
              maxModelLen: 65536
              quantization: awq
              dtype: bfloat16
              kvCacheDtype: fp8_e4m3
              enablePrefixCaching: true
              enableChunkedPrefill: true
              maxNumBatchedTokens: 8192
              attentionBackend: FLASHINFER
              speculative: {enabled: true, model: Qwen/Qwen2.5-0.5B, numSpeculativeTokens: 5}
              enableExpertParallel: true
              cpuOffloadGB: 8
              gpuMemoryUtilization: 0.92
            extraArgs: [--seed, "1"]
            """, GPU2,
            "/model-source/llama.gguf --port 8000 --host :: --served-model-name m --tensor-parallel-size 2"
            + " --max-model-len 65536 --quantization awq --dtype bfloat16 --kv-cache-dtype fp8_e4m3"
            + " --enable-prefix-caching --enable-chunked-prefill --max-num-batched-tokens 8192"
            + " --attention-backend FLASHINFER"
            + " --speculative-config {\"model\":\"Qwen/Qwen2.5-0.5B\",\"num_speculative_tokens\":5}"
            + " --enable-expert-parallel --cpu-offload-gb 8 --gpu-memory-utilization 0.92 --max-num-seqs 16"
            + " --seed 1"),
        new Case("auto tensor parallelism from the GPU count", "modelRef: m\nruntime: vllm", GPU2,
            "/model-source/llama.gguf --port 8000 --host :: --served-model-name m --tensor-parallel-size 2"),
        new Case("kv auto emits nothing, custom wins, GPU-only flags dropped on CPU", """
            modelRef: m
            runtime: vllm
            vllmConfig: {kvCacheDtype: auto, cpuOffloadGB: 4, gpuMemoryUtilization: 0.5, tensorParallelSize: 1}
            """, PVC_MODEL, "/model-source/llama.gguf --port 8000 --host :: --served-model-name m"),
        new Case("custom kv cache dtype", """
            modelRef: m
            runtime: vllm
            vllmConfig: {kvCacheDtype: fp8_e5m2, kvCacheCustomDtype: fp8_ds_mla}
            """, PVC_MODEL,
            "/model-source/llama.gguf --port 8000 --host :: --served-model-name m --kv-cache-dtype fp8_ds_mla"),
        new Case("speculative without a model emits nothing", """
            modelRef: m
            runtime: vllm
            vllmConfig: {speculative: {enabled: true}}
            """, PVC_MODEL, "/model-source/llama.gguf --port 8000 --host :: --served-model-name m"),
        new Case("extraArgs override typed flags", """
            modelRef: m
            runtime: vllm
            vllmConfig: {maxModelLen: 4096}
            extraArgs: [--max-model-len, "8192", --host, 0.0.0.0]
            """, PVC_MODEL,
            "/model-source/llama.gguf --port 8000 --served-model-name m --max-model-len 8192 --host 0.0.0.0"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("vllm")
  void vllmArgv(Case c) {
    assertThat(VllmRenderer.INSTANCE.args(input(c.isvcSpec(), c.modelSpec())))
        .containsExactlyElementsOf(argv(c.args()));
  }

  @Test
  void vllmContainer() {
    Container c = VllmRenderer.INSTANCE.container(input("""
        modelRef: m
        runtime: vllm
        vllmConfig: {hfTokenSecretRef: {name: hf-token, key: HF_TOKEN}}
        env: [{name: VLLM_LOGGING_LEVEL, value: DEBUG}]
        """, PVC_MODEL));
    assertThat(c.getName()).isEqualTo("vllm");
    assertThat(c.getImage()).isEqualTo("vllm/vllm-openai:v0.25.1");
    assertThat(c.getCommand()).containsExactly("vllm", "serve");
    assertThat(c.getPorts().getFirst().getContainerPort()).isEqualTo(8000);
    assertThat(c.getEnv()).extracting("name").containsExactly("HF_TOKEN", "VLLM_LOGGING_LEVEL");
    assertThat(c.getEnv().getFirst().getValueFrom().getSecretKeyRef().getKey()).isEqualTo("HF_TOKEN");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
    assertThat(VllmRenderer.INSTANCE.serviceLinks()).isFalse();
    assertThat(VllmRenderer.INSTANCE.defaultHpaMetric()).isEqualTo("vllm:num_requests_running");
  }

  static Stream<Case> tgi() {
    return Stream.of(
        new Case("minimum with a hub id", "modelRef: m\nruntime: tgi", "source: mistralai/Mistral-7B\n",
            "--model-id mistralai/Mistral-7B --port 80 --hostname ::"),
        new Case("typed fields, shards and extraArgs", """
            modelRef: m
            runtime: tgi
            tgiConfig: {quantize: gptq, maxInputLength: 4096, maxTotalTokens: 8192, dtype: float16}
            extraArgs: [--max-batch-prefill-tokens, "4096"]
            """, GPU2,
            "--model-id /model-source/llama.gguf --port 80 --hostname :: --quantize gptq --max-input-length 4096"
            + " --max-total-tokens 8192 --dtype float16 --num-shard 2 --max-batch-prefill-tokens 4096"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tgi")
  void tgiArgv(Case c) {
    assertThat(TgiRenderer.INSTANCE.args(input(c.isvcSpec(), c.modelSpec())))
        .containsExactlyElementsOf(argv(c.args()));
  }

  @Test
  void tgiContainer() {
    Container c = TgiRenderer.INSTANCE.container(input("""
        modelRef: m
        runtime: tgi
        tgiConfig: {hfTokenSecretRef: {name: hf-token, key: HF_TOKEN}}
        """, PVC_MODEL));
    assertThat(c.getName()).isEqualTo("tgi");
    assertThat(c.getImage()).isEqualTo("ghcr.io/huggingface/text-generation-inference:3.3.7");
    assertThat(c.getCommand()).isNullOrEmpty();
    assertThat(c.getPorts().getFirst().getContainerPort()).isEqualTo(80);
    assertThat(c.getEnv()).extracting("name").containsExactly("HUGGING_FACE_HUB_TOKEN");
    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health");
  }

  @Test
  void personaPlexContainer() {
    Container c = PersonaPlexRenderer.INSTANCE.container(input("""
        modelRef: m
        runtime: personaplex
        image: nvcr.io/nvidia/personaplex:1
        extraArgs: [--ignored]
        personaPlexConfig: {quantize4Bit: true, cpuOffload: true, hfTokenSecretRef: {name: hf, key: HF_TOKEN}}
        """, PVC_MODEL));
    assertThat(c.getName()).isEqualTo("personaplex");
    assertThat(c.getCommand()).containsExactly("/app/moshi/.venv/bin/python", "-m", "moshi.server");
    assertThat(c.getArgs()).containsExactlyElementsOf(argv(
        "--host 0.0.0.0 --port 8998 --ssl /app/ssl --quantize-4bit --cpu-offload"));
    assertThat(c.getEnv()).extracting("name").containsExactly("HF_TOKEN", "NO_TORCH_COMPILE");
    assertThat(c.getEnv().get(1).getValue()).isEqualTo("1");
    assertThat(c.getPorts().getFirst().getContainerPort()).isEqualTo(8998);
    assertThat(c.getStartupProbe().getTcpSocket().getPort().getIntVal()).isEqualTo(8998);
    assertThat(c.getStartupProbe().getFailureThreshold()).isEqualTo(180);
  }

  @Test
  void genericContainerUsesTheSpecAsGiven() {
    Container c = GenericRenderer.INSTANCE.container(input("""
        modelRef: m
        runtime: generic
        image: registry.example.com/serve:1
        command: [/usr/local/bin/serve]
        args: [--listen, "0.0.0.0:9000"]
        extraArgs: [--ignored]
        containerPort: 9000
        """, PVC_MODEL));
    assertThat(c.getName()).isEqualTo("inference-server");
    assertThat(c.getImage()).isEqualTo("registry.example.com/serve:1");
    assertThat(c.getCommand()).containsExactly("/usr/local/bin/serve");
    assertThat(c.getArgs()).containsExactly("--listen", "0.0.0.0:9000");
    assertThat(c.getPorts().getFirst().getContainerPort()).isEqualTo(9000);
    assertThat(c.getReadinessProbe().getTcpSocket().getPort().getIntVal()).isEqualTo(9000);
  }

  @Test
  void everyRuntimeHasARenderer() {
    for (InferenceRuntime runtime : InferenceRuntime.values()) {
      RuntimeRenderer r = RuntimeRenderer.of(runtime);
      assertThat(r.runtimeName()).isEqualTo(dev.modelplane.operator.common.EnumValues.of(runtime));
    }
    assertThat(RuntimeRenderer.of(null)).isSameAs(LlamaCppRenderer.INSTANCE);
  }

  @Test
  void defaultPortsAndMetrics() {
    assertThat(Stream.of(InferenceRuntime.values()).map(RuntimeRenderer::of)
        .map(r -> r.runtimeName() + ":" + r.defaultPort() + ":" + r.defaultHpaMetric() + ":" + r.usesModelInit()))
        .containsExactly("llamacpp:8080:llamacpp:requests_processing:true",
            "llamacpp-router:8080:llamacpp:requests_processing:false", "personaplex:8998:null:false",
            "vllm:8000:vllm:num_requests_running:true", "tgi:80:tgi:queue_size:false",
            "sglang:30000:sglang:num_running_reqs:true", "generic:8080:null:false");
  }
}
