package dev.modelplane.operator.llmkube.runtime;

import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.PVC_MODEL;
import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.argv;
import static dev.modelplane.operator.llmkube.runtime.RuntimeCases.input;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.llmkube.runtime.RuntimeCases.Case;
import dev.modelplane.operator.modelsource.CacheKey;
import io.fabric8.kubernetes.api.model.Container;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class LlamaCppRendererTest {
  private static final String GPU1 = PVC_MODEL + """
      hardware:
        accelerator: cuda
        gpu: {enabled: true, count: 1}
      """;

  static Stream<Case> cases() {
    return Stream.of(
        new Case("CPU minimum", "modelRef: m", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --metrics"),
        new Case("one GPU offloads every layer", "modelRef: m", GPU1,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --metrics"),
        new Case("layers -1 means all", "modelRef: m", PVC_MODEL + """
            hardware:
              gpu: {count: 1, layers: -1}
            """, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --metrics"),
        new Case("explicit layer count", "modelRef: m", PVC_MODEL + """
            hardware:
              gpu: {count: 1, layers: 40}
            """, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 40 --metrics"),
        new Case("GPU count from the service", "modelRef: m\nresources: {gpu: 1}", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --metrics"),
        new Case("two GPUs with a layer split reduced by GCD", "modelRef: m", PVC_MODEL + """
            hardware:
              gpu:
                count: 2
                sharding: {strategy: layer, layerSplit: ["0-24", "25-39"]}
            """, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --split-mode layer"
            + " --tensor-split 5,3 --metrics"),
        new Case("tensor sharding is row split, equal shares", "modelRef: m", PVC_MODEL + """
            hardware:
              gpu:
                count: 3
                sharding: {strategy: tensor}
            """, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --split-mode row"
            + " --tensor-split 1,1,1 --metrics"),
        new Case("pipeline is layer", "modelRef: m", PVC_MODEL + """
            hardware:
              gpu:
                count: 2
                sharding: {strategy: pipeline}
            """, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --split-mode layer"
            + " --tensor-split 1,1 --metrics"),
        new Case("no sharding has no tensor split", "modelRef: m", PVC_MODEL + """
            hardware:
              gpu:
                count: 2
                sharding: {strategy: none}
            """, "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --split-mode none"
            + " --metrics"),
        new Case("every typed flag in order", """
            modelRef: m
            contextSize: 32768
            ropeScaling: {type: yarn, factor: "2.0", originalContext: 16384}
            parallelSlots: 4
            flashAttention: true
            jinja: true
            cacheTypeK: q8_0
            cacheTypeV: q4_0
            moeCPUOffload: true
            moeCPULayers: 12
            noKvOffload: true
            tensorOverrides: [exps=CPU, token_embd=CUDA0]
            batchSize: 2048
            uBatchSize: 512
            noWarmup: true
            reasoningBudget: 1024
            metadataOverrides: [a.context_length=int:65536, tokenizer.x=bool:false]
            extraArgs: [--seed, "42"]
            """, GPU1 + "mmproj: mmproj-F16.gguf\n",
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --n-gpu-layers 99 --ctx-size 32768"
            + " --rope-scaling yarn --rope-scale 2.0 --yarn-orig-ctx 16384 --parallel 4 --flash-attn on --jinja"
            + " --cache-type-k q8_0 --cache-type-v q4_0 --cpu-moe --n-cpu-moe 12 --no-kv-offload"
            + " --override-tensor exps=CPU --override-tensor token_embd=CUDA0 --batch-size 2048 --ubatch-size 512"
            + " --no-warmup --reasoning-budget 1024 --mmproj /model-source/mmproj-F16.gguf"
            + " --override-kv a.context_length=int:65536 --override-kv tokenizer.x=bool:false --seed 42 --metrics"),
        new Case("flash attention is dropped without a GPU", "modelRef: m\nflashAttention: true", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --metrics"),
        new Case("custom cache types win over the enum", """
            modelRef: m
            cacheTypeK: q8_0
            cacheTypeCustomK: turbo3
            cacheTypeCustomV: tbqp3
            """, PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --cache-type-k turbo3 --cache-type-v tbqp3"
            + " --metrics"),
        new Case("reasoning budget 0 still emits the flag", "modelRef: m\nreasoningBudget: 0", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --reasoning-budget 0 --metrics"),
        new Case("moeCPULayers 0 emits nothing", "modelRef: m\nmoeCPULayers: 0", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --metrics"),
        new Case("typed flags named in extraArgs are skipped", """
            modelRef: m
            contextSize: 4096
            parallelSlots: 2
            ropeScaling: {type: linear, factor: "4"}
            extraArgs: [--host, 0.0.0.0, -c, "8192", --parallel=8, --rope-scaling, yarn, --metrics]
            """, PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --alias m --host 0.0.0.0 -c 8192 --parallel=8 --rope-scaling yarn"
            + " --metrics"),
        new Case("embedding mode from the endpoint path", """
            modelRef: m
            endpoint: {path: /v1/embeddings}
            """, PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --embedding --pooling last --cache-ram 0"
            + " --metrics"),
        new Case("rerank mode from extraArgs keeps the user's flag", """
            modelRef: m
            extraArgs: [--reranking]
            """, PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias m --embedding --pooling rank --cache-ram 0"
            + " --reranking --metrics"),
        new Case("containerPort sets --port", "modelRef: m\ncontainerPort: 9090", PVC_MODEL,
            "--model /model-source/llama.gguf --port 9090 --host :: --alias m --metrics"),
        new Case("endpoint.port sets --port", "modelRef: m\nendpoint: {port: 8081}", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8081 --host :: --alias m --metrics"),
        new Case("a Hugging Face id is resolved by the server", "modelRef: m", "source: bartowski/Llama-GGUF\n",
            "--hf-repo bartowski/Llama-GGUF --port 8080 --host :: --alias m --metrics"),
        new Case("the server answers to the Model's name", "modelRef: qwen2-5-0-5b-instruct", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias qwen2-5-0-5b-instruct --metrics"),
        new Case("an alias in extraArgs replaces the Model's name", "modelRef: m\nextraArgs: [--alias, chat]",
            PVC_MODEL, "--model /model-source/llama.gguf --port 8080 --host :: --alias chat --metrics"),
        new Case("so does its short form", "modelRef: m\nextraArgs: [-a, chat]", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: -a chat --metrics"),
        new Case("and its = form", "modelRef: m\nextraArgs: [--alias=chat]", PVC_MODEL,
            "--model /model-source/llama.gguf --port 8080 --host :: --alias=chat --metrics"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void argvIsExact(Case c) {
    RuntimeInput in = input(c.isvcSpec(), c.modelSpec());
    assertThat(LlamaCppRenderer.INSTANCE.args(in)).containsExactlyElementsOf(argv(c.args()));
  }

  @Test
  void reasoningMessageWithSpacesIsOneArgument() {
    RuntimeInput in = input("""
        modelRef: m
        reasoningBudget: 2048
        reasoningBudgetMessage: "Time is up: answer now."
        """, PVC_MODEL);
    assertThat(LlamaCppRenderer.INSTANCE.args(in)).containsSequence("--reasoning-budget", "2048",
        "--reasoning-budget-message", "Time is up: answer now.");
  }

  @Test
  void downloadedModelsLiveUnderTheirCacheKey() {
    String url = "https://example.com/org/repo/resolve/main/Llama-Q4_K_M.gguf";
    RuntimeInput in = input("modelRef: m", "source: " + url + "\n");
    assertThat(LlamaCppRenderer.INSTANCE.args(in)).startsWith("--model",
        "/models/" + CacheKey.of(url) + "/Llama-Q4_K_M.gguf");
  }

  @Test
  void portInExtraArgsIsWhatTheContainerExposesAndProbes() {
    RuntimeInput in = input("modelRef: m\nextraArgs: [--port, \"9000\"]", PVC_MODEL);
    Container c = LlamaCppRenderer.INSTANCE.container(in);
    assertThat(c.getArgs()).containsExactly("--model", "/model-source/llama.gguf", "--host", "::", "--alias", "m",
        "--port", "9000", "--metrics");
    assertThat(c.getPorts()).singleElement().satisfies(p -> assertThat(p.getContainerPort()).isEqualTo(9000));
    assertThat(c.getReadinessProbe().getHttpGet().getPort().getIntVal()).isEqualTo(9000);
  }

  @Test
  void containerHasImageProbesAndPort() {
    Container c = LlamaCppRenderer.INSTANCE.container(input("modelRef: m", PVC_MODEL));
    assertThat(c.getName()).isEqualTo("llama-server");
    assertThat(c.getImage()).isEqualTo("ghcr.io/ggml-org/llama.cpp:server");
    assertThat(c.getCommand()).isNullOrEmpty();
    assertThat(c.getPorts()).singleElement().satisfies(p -> {
      assertThat(p.getName()).isEqualTo("http");
      assertThat(p.getContainerPort()).isEqualTo(8080);
    });
    assertThat(c.getStartupProbe().getHttpGet().getPath()).isEqualTo("/health");
    assertThat(c.getStartupProbe().getPeriodSeconds()).isEqualTo(10);
    assertThat(c.getStartupProbe().getFailureThreshold()).isEqualTo(180);
    assertThat(c.getLivenessProbe().getPeriodSeconds()).isEqualTo(15);
    assertThat(c.getLivenessProbe().getFailureThreshold()).isEqualTo(3);
    assertThat(c.getReadinessProbe().getPeriodSeconds()).isEqualTo(10);
    assertThat(c.getReadinessProbe().getTimeoutSeconds()).isEqualTo(5);
    assertThat(c.getReadinessProbe().getInitialDelaySeconds()).isNull();
    assertThat(c.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
  }

  @Test
  void imageFollowsTheGpuVendorUnlessOverridden() {
    assertThat(LlamaCppRenderer.INSTANCE.image(input("modelRef: m", GPU1))).isEqualTo(LlamaCppRenderer.IMAGE_CUDA);
    String amd = PVC_MODEL + "hardware:\n  accelerator: vulkan\n  gpu: {count: 1, vendor: amd, runtime: %s}\n";
    assertThat(LlamaCppRenderer.INSTANCE.image(input("modelRef: m", amd.formatted("vulkan"))))
        .isEqualTo(LlamaCppRenderer.IMAGE_VULKAN);
    assertThat(LlamaCppRenderer.INSTANCE.image(input("modelRef: m", amd.formatted("rocm"))))
        .isEqualTo(LlamaCppRenderer.IMAGE_ROCM);
    assertThat(LlamaCppRenderer.INSTANCE.image(input("modelRef: m\nimage: my/llama:1", GPU1)))
        .isEqualTo("my/llama:1");
    RuntimeInput base = input("modelRef: m", GPU1);
    RuntimeInput overridden = new RuntimeInput("svc", base.spec(), base.model(), base.gpu(), "mirror/llama:cuda");
    assertThat(LlamaCppRenderer.INSTANCE.image(overridden)).isEqualTo("mirror/llama:cuda");
  }

  @Test
  void probeOverridesReplaceWholeProbes() {
    Container c = LlamaCppRenderer.INSTANCE.container(input("""
        modelRef: m
        probeOverrides:
          liveness:
            tcpSocket: {port: 8080}
            periodSeconds: 30
        """, PVC_MODEL));
    assertThat(c.getLivenessProbe().getHttpGet()).isNull();
    assertThat(c.getLivenessProbe().getTcpSocket().getPort().getIntVal()).isEqualTo(8080);
    assertThat(c.getLivenessProbe().getFailureThreshold()).isNull();
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
  }

  @Test
  void envIsRuntimeThenSpec() {
    Container c = LlamaCppRenderer.INSTANCE.container(input("""
        modelRef: m
        env:
          - {name: LLAMA_ARG_THREADS, value: "8"}
          - name: HF_TOKEN
            valueFrom: {secretKeyRef: {name: hf, key: token}}
        """, PVC_MODEL));
    assertThat(c.getEnv()).extracting("name").containsExactly("LLAMA_ARG_THREADS", "HF_TOKEN");
    assertThat(c.getEnv().get(1).getValueFrom().getSecretKeyRef().getName()).isEqualTo("hf");
  }

  @Test
  void tensorSplitFallsBackToEqualSharesWhenTheSplitDoesNotFit() {
    assertThat(LlamaCppRenderer.tensorSplit(2, List.of("0-9"))).isEqualTo("1,1");
    assertThat(LlamaCppRenderer.tensorSplit(2, List.of("a-b", "1-2"))).isEqualTo("1,1");
    assertThat(LlamaCppRenderer.tensorSplit(3, List.of("0-19", "20-39", "40-79"))).isEqualTo("1,1,2");
  }
}
