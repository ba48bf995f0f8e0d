package dev.modelplane.operator.llmkube.runtime;

import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.PVC_MODEL;
import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.argv;
import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.input;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.llmkube.runtime.RuntimeCases.Case;
import dev.modelplane.operator.modelsource.CacheKey;
import io.fabric8.kubernetes.api.model.Container;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** SGLang, llama.cpp's router mode, and the newer llama.cpp fields (mode, bindAddress, speculative decoding). */
class NewerRuntimesTest {
  private static final String GPU2 = PVC_MODEL + "hardware:\n  gpu: {count: 2}\n";
  private static final String GPU1 = PVC_MODEL + "hardware:\n  gpu: {count: 1}\n";

  static Stream<Case> sglang() {
    return Stream.of(
        new Case("minimum", "modelRef: m\nruntime: sglang", PVC_MODEL,
            "--model-path /model-source/llama.gguf --host :: --port 30000 --enable-metrics --served-model-name m"),
        new Case("hub id with revision, bind address, auto tp", "modelRef: m\nruntime: sglang\nbindAddress: 0.0.0.0",
            "source: hf://Qwen/Qwen3-8B@main\nhardware: {gpu: {count: 4}}\n",
            "--model-path Qwen/Qwen3-8B --revision main --host 0.0.0.0 --port 30000 --enable-metrics"
            + " --served-model-name m --tp 4"),
        new Case("every sglangConfig field in order", """
            modelRef: m
            runtime: sglang
            mode: embedding
            sglangConfig:
              tensorParallelSize: 2
              expertParallelSize: 2
              dataParallelSize: 1
              contextLength: 65536
              memFractionStatic: 0.85
              chunkedPrefillSize: 8192
              maxRunningRequests: 32
              quantization: fp8
              kvCacheDtype: fp8_e4m3
              attentionBackend: flashinfer
              enablePrefixCaching: true
              toolCallParser: qwen3
              reasoningParser: qwen3
              chatTemplate: /templates/chat.jinja
              speculative: {enabled: true, algorithm: EAGLE3, draftModelPath: /drafts/d, numSteps: 3, eagleTopK: 4,
                numDraftTokens: 8, acceptThresholdSingle: 0.5, acceptThresholdAcc: 0.9}
              loraModules: [style=/adapters/old, other=/adapters/other]
              loraAdapters: [{name: style, path: /adapters/style}]
              maxLoraRank: 64
              loraTargetModules: [q_proj, v_proj]
              trustRemoteCode: true
              skipTokenizerInit: true
              logLevel: warning
            extraArgs: [--random-seed, "1"]
            """, GPU2,
            "--model-path /model-source/llama.gguf --host :: --port 30000 --enable-metrics --served-model-name m"
            + " --tp 2 --ep 2 --dp 1 --context-length 65536 --mem-fraction-static 0.85 --chunked-prefill-size 8192"
            + " --max-running-requests 32 --quantization fp8 --kv-cache-dtype fp8_e4m3 --attention-backend flashinfer"
            + " --enable-prefix-caching --tool-call-parser qwen3 --reasoning-parser qwen3"
            + " --chat-template /templates/chat.jinja --speculative-algorithm EAGLE3 --speculative-draft-model-path"
            + " /drafts/d --speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8"
            + " --speculative-accept-threshold-single 0.5 --speculative-accept-threshold-acc 0.9"
            + " --lora-paths style=/adapters/style other=/adapters/other --max-lora-rank 64"
            + " --lora-target-modules q_proj v_proj --trust-remote-code --skip-tokenizer-init --log-level warning"
            + " --is-embedding --random-seed 1"),
        new Case("parallelSlots stands in for maxRunningRequests; GPU-only and incomplete flags dropped", """
            modelRef: m
            runtime: sglang
            parallelSlots: 8
            sglangConfig: {memFractionStatic: 0.9, kvCacheDtype: auto, speculative: {enabled: true, algorithm: EAGLE}}
            """, PVC_MODEL,
            "--model-path /model-source/llama.gguf --host :: --port 30000 --enable-metrics --served-model-name m"
            + " --max-running-requests 8"),
        new Case("embedding mode inferred from the path; extraArgs win", """
            modelRef: m
            runtime: sglang
            endpoint: {path: /v1/embeddings}
            extraArgs: [--served-model-name, bge, --port, "31000"]
            """, PVC_MODEL,
            "--model-path /model-source/llama.gguf --host :: --enable-metrics --is-embedding --served-model-name bge"
            + " --port 31000"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sglang")
  void sglangArgv(Case c) {
    assertThat(SglangRenderer.INSTANCE.args(input(c.isvcSpec(), c.modelSpec())))
        .containsExactlyElementsOf(argv(c.args()));
  }

  @Test
  void sglangContainer() {
    Container c = SglangRenderer.INSTANCE.container(input("""
        modelRef: m
        runtime: sglang
        sglangConfig: {hfTokenSecretRef: {name: hf, key: HF_TOKEN}}
        """, GPU1));
    assertThat(c.getName()).isEqualTo("sglang");
    assertThat(c.getImage()).isEqualTo("lmsysorg/sglang:v0.5.15.post1-cu129");
    assertThat(c.getCommand()).containsExactly("python3", "-m", "sglang.launch_server");
    assertThat(c.getPorts().getFirst().getContainerPort()).isEqualTo(30000);
    assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/health_generate");
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health_generate");
    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo("/health");
    assertThat(c.getEnv()).extracting("name").containsExactly("HF_TOKEN");
    assertThat(SglangRenderer.INSTANCE.image(input("modelRef: m\nruntime: sglang",
        PVC_MODEL + "hardware: {gpu: {count: 1, vendor: amd}}\n"))).isEqualTo(SglangRenderer.IMAGE_ROCM);
    assertThat(SglangRenderer.INSTANCE.listenPort(input("modelRef: m\nruntime: sglang\nextraArgs: [--port=31000]",
        PVC_MODEL))).isEqualTo(31000);
  }

  @Test
  void llamaCppRouter() {
    RuntimeInput in = input("modelRef: m\nruntime: llamacpp-router\ncontextSize: 4096\nextraArgs: [--models-max, \"4\"]",
        GPU2);
    assertThat(LlamaCppRouterRenderer.INSTANCE.args(in)).containsExactlyElementsOf(argv(
        "--models-dir /models --port 8080 --host :: --metrics --models-max 4"));
    assertThat(LlamaCppRouterRenderer.INSTANCE.args(input("modelRef: m\nruntime: llamacpp-router\nextraArgs: [--metrics]",
        PVC_MODEL))).containsExactlyElementsOf(argv("--models-dir /models --port 8080 --host :: --metrics"));
    Container c = LlamaCppRouterRenderer.INSTANCE.container(in);
    assertThat(c.getName()).isEqualTo("llama-server");
    assertThat(c.getImage()).isEqualTo("ghcr.io/ggml-org/llama.cpp:server");
  }

  static Stream<Case> llamaCpp() {
    return Stream.of(
        new Case("bind address", "modelRef: m\nbindAddress: 0.0.0.0", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host 0.0.0.0 --alias m --metrics"),
        new Case("explicit chat mode wins over an embeddings path", "modelRef: m\nmode: chat\nendpoint: {path: "
            + "/v1/embeddings}", PVC_MODEL, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --metrics"),
        new Case("explicit rerank mode", "modelRef: m\nmode: rerank", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --reranking --embedding --pooling rank"
            + " --cache-ram 0 --metrics"),
        new Case("draft file beside the model", """
            modelRef: m
            noWarmup: true
            reasoningBudget: 0
            speculativeDecoding: {type: draft, draftModel: draft-Q8_0.gguf, nDraftMax: 3, pMin: 0.75}
            """, "source: hf://org/repo\nfiles: [main.gguf, draft-Q8_0.gguf]\n",
            "--model /models/" + dev.modelplane.operator.modelsource.CacheKey.of("hf://org/repo") + "/main.gguf --port 8080"
            + " --host :: --alias m --no-warmup --spec-type draft-simple -md /models/"
            + dev.modelplane.operator.modelsource.CacheKey.of("hf://org/repo") + "/draft-Q8_0.gguf --spec-draft-n-max 3"
            + " --spec-draft-p-min 0.75 --reasoning-budget 0 --metrics"),
        new Case("mtp needs no draft", "modelRef: m\nspeculativeDecoding: {type: mtp}", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --spec-type draft-mtp --metrics"),
        new Case("n-gram types pass through", "modelRef: m\nspeculativeDecoding: {type: ngram-map-k, nDraftMax: 8}",
            PVC_MODEL, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --spec-type ngram-map-k"
            + " --spec-draft-n-max 8 --metrics"),
        new Case("none passes nothing", "modelRef: m\nspeculativeDecoding: {type: none, nDraftMax: 8}", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --metrics"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("llamaCpp")
  void llamaCppArgv(Case c) {
    assertThat(LlamaCppRenderer.INSTANCE.args(input(c.isvcSpec(), c.modelSpec())))
        .containsExactlyElementsOf(argv(c.args()));
  }

  @Test
  void tgiBindsTheBindAddress() {
    assertThat(TgiRenderer.INSTANCE.args(input("modelRef: m\nruntime: tgi\nbindAddress: 0.0.0.0", PVC_MODEL)))
        .containsSequence("--hostname", "0.0.0.0");
    assertThat(VllmRenderer.INSTANCE.args(input("modelRef: m\nruntime: vllm\nbindAddress: 0.0.0.0", PVC_MODEL)))
        .containsSequence("--host", "0.0.0.0");
  }
}
