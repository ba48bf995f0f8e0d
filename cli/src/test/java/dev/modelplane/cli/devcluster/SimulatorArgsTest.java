package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which containers run as simulators, and how their command lines become simulator flags. */
class SimulatorArgsTest {
  private static Pod pod(Container c) {
    return new PodBuilder().withNewMetadata().withName("p").withNamespace("ns")
        .addToLabels("base-model-name", "llama-3-8b").endMetadata().withNewSpec().withContainers(c).endSpec()
        .withNewStatus().withPodIP("127.2.0.9").endStatus().build();
  }

  private static SimulatorPlan plan(Container c) {
    return SimulatorArgs.plan(pod(c), c, ServerKind.of(c).orElseThrow());
  }

  @Test
  void imagesAreRecognisedByRepositoryName() {
    assertThat(ServerKind.of(image("docker.io/vllm/vllm-openai:v0.25.1"))).contains(ServerKind.VLLM);
    assertThat(ServerKind.of(image("rocm/vllm:latest"))).contains(ServerKind.VLLM);
    assertThat(ServerKind.of(image("ghcr.io/llm-d/llm-d-cuda:v0.5.1"))).contains(ServerKind.VLLM);
    assertThat(ServerKind.of(image("lmsysorg/sglang:v0.5.15.post1-cu129"))).contains(ServerKind.SGLANG);
    assertThat(ServerKind.of(image("ghcr.io/ggml-org/llama.cpp:server-cuda-b10068"))).contains(ServerKind.LLAMA_CPP);
    assertThat(ServerKind.of(image("ghcr.io/huggingface/text-generation-inference:3.3.7"))).contains(ServerKind.TGI);
    assertThat(ServerKind.of(image("localhost:5000/vllm@sha256:abc"))).contains(ServerKind.VLLM);
    assertThat(ServerKind.of(image("ghcr.io/defilantech/llmkube-llama-vulkan@sha256:cbab8af6")))
        .contains(ServerKind.LLAMA_CPP);
    assertThat(ServerKind.of(image("ghcr.io/llm-d/llm-d-inference-sim:v0.6"))).contains(ServerKind.SIMULATOR);
    // Routers, endpoint pickers, look-alikes and unknown servers stay fake.
    assertThat(ServerKind.of(image("docker.io/lmsysorg/sglang-router:v0.2.4"))).isEmpty();
    assertThat(ServerKind.of(image("ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0"))).isEmpty();
    assertThat(ServerKind.of(image("registry.example.com/ml/custom-llm-server:1.4.2"))).isEmpty();
    assertThat(ServerKind.of(image("example.com/my-vllm-fork:1"))).isEmpty();
    assertThat(ServerKind.of(new ContainerBuilder().withName("r").withImage("ghcr.io/modelplane/modelplane:0.1.0")
        .withArgs("router", "--pool", "x").build())).isEmpty();
    assertThat(ServerKind.of(new ContainerBuilder().withName("s").withImage("ghcr.io/modelplane/modelplane:0.1.0")
        .withArgs("simulator", "--model", "m").build())).contains(ServerKind.SIMULATOR);
  }

  @Test
  void vllmServeMapsModelNamesBatchContextLorasAndTensorParallelism() {
    SimulatorPlan p = plan(new ContainerBuilder().withName("vllm").withImage("vllm/vllm-openai:v0.25.1")
        .withCommand("vllm", "serve").withArgs("meta-llama/Llama-3.1-70B-Instruct", "--served-model-name", "llama",
            "llama-70b", "--port=8001", "--tensor-parallel-size", "4", "--max-num-seqs", "64", "--max-model-len=8192",
            "--enable-lora", "--lora-modules", "sql=/adapters/sql", "{\"name\":\"chat\",\"path\":\"/a/c\"}",
            "--gpu-memory-utilization", "0.9", "--kv-cache-dtype", "fp8")
        .withNewResources().addToLimits("nvidia.com/gpu", new Quantity("4")).endResources().build());
    assertThat(p.port()).isEqualTo(8001);
    assertThat(String.join(" ", p.args())).contains("--served-model-name llama llama-70b")
        .contains("--model meta-llama/Llama-3.1-70B-Instruct").contains("--max-num-seqs 64")
        .contains("--max-model-len 8192").contains("--preset llama-3.1-70b-h100-tp4")
        .contains("--lora-modules {\"name\":\"sql\",\"path\":\"/adapters/sql\"} {\"name\":\"chat\",\"path\":\"/a/c\"}")
        .contains("--enable-kvcache").contains("--gpu-memory-utilization 0.9").contains("--kv-cache-dtype fp8");
    assertThat(p.ignored()).isEmpty();
  }

  @Test
  void vllmsKvEventFlagsCarryOverWithThePodsAddressAndHashSeed() {
    SimulatorPlan p = plan(new ContainerBuilder().withName("vllm").withImage("vllm/vllm-openai:v0.25.1")
        .withCommand("vllm", "serve").withArgs("m", "--block-size", "16", "--prefix-caching-hash-algo", "sha256_cbor",
            "--kv-events-config", "{\"enable_kv_cache_events\":true,\"publisher\":\"zmq\",\"endpoint\":\"tcp://*:5557\","
                + "\"topic\":\"kv@$(POD_IP):8000@m\"}")
        .addNewEnv().withName("POD_IP").withNewValueFrom().withNewFieldRef().withFieldPath("status.podIP")
            .endFieldRef().endValueFrom().endEnv()
        .addNewEnv().withName("PYTHONHASHSEED").withValue("42").endEnv().build());
    assertThat(p.args()).containsSequence("--kv-events-config", "{\"enable_kv_cache_events\":true,\"publisher\":"
        + "\"zmq\",\"endpoint\":\"tcp://*:5557\",\"topic\":\"kv@127.2.0.9:8000@m\"}")
        .containsSequence("--prefix-caching-hash-algo", "sha256_cbor").containsSequence("--hash-seed", "42")
        .containsSequence("--block-size", "16");
    assertThat(p.ignored()).isEmpty();

    SimulatorPlan other = plan(new ContainerBuilder().withName("vllm").withImage("vllm/vllm-openai:v0.25.1")
        .withCommand("vllm", "serve").withArgs("m", "--prefix-caching-hash-algo", "xxhash").build());
    assertThat(other.args()).doesNotContain("--prefix-caching-hash-algo");
    assertThat(other.ignored()).as("an algorithm the simulator does not hash with is reported")
        .anyMatch(f -> f.contains("--prefix-caching-hash-algo"));
  }

  @Test
  void omeStyleRuntimesExpandFieldReferencesAndShellScripts() {
    SimulatorPlan vllm = plan(new ContainerBuilder().withName("ome-container").withImage("vllm/vllm-openai:v0.9.0.1")
        .withCommand("vllm", "serve").withArgs("$(MODEL_PATH)", "--served-model-name=$(SERVED_MODEL_NAME)",
            "--port=8080", "--tensor-parallel-size=$(PARALLELISM_SIZE)")
        .addNewEnv().withName("MODEL_PATH").withValue("/mnt/models/llama").endEnv()
        .addNewEnv().withName("SERVED_MODEL_NAME").withNewValueFrom().withNewFieldRef()
            .withFieldPath("metadata.labels['base-model-name']").endFieldRef().endValueFrom().endEnv()
        .addNewEnv().withName("PARALLELISM_SIZE").withValue("1").endEnv().build());
    assertThat(vllm.port()).isEqualTo(8080);
    assertThat(String.join(" ", vllm.args())).contains("--served-model-name llama-3-8b")
        .contains("--model /mnt/models/llama").contains("--preset small-3b-l40s");

    SimulatorPlan sglang = plan(new ContainerBuilder().withName("ome-container")
        .withImage("docker.io/lmsysorg/sglang:v0.5.15.post1-cu129").withCommand("/bin/bash", "-lc")
        .withArgs("python3 -m sglang.launch_server \\\n  --host=0.0.0.0 --port=${PORT} \\\n"
            + "  --model-path \"$MODEL_PATH\" --served-model-name 'my model' --tp-size 8 --context-length 4096 \\\n"
            + "  --max-running-requests 32 --lora-paths a=/l/a --mem-fraction-static 0.85")
        .addNewEnv().withName("PORT").withValue("30001").endEnv()
        .addNewEnv().withName("MODEL_PATH").withValue("/mnt/models/qwen").endEnv()
        .withNewResources().addToLimits("nvidia.com/gpu", new Quantity("8")).endResources().build());
    assertThat(sglang.port()).isEqualTo(30001);
    assertThat(sglang.args()).containsSequence("--served-model-name", "my model");
    assertThat(String.join(" ", sglang.args())).contains("--model /mnt/models/qwen").contains("--max-model-len 4096")
        .contains("--max-num-seqs 32").contains("--preset llama-3.1-70b-h100-tp8")
        .contains("--lora-modules {\"name\":\"a\",\"path\":\"/l/a\"}");
    assertThat(String.join(" ", sglang.args())).contains("--gpu-memory-utilization 0.85");
    assertThat(sglang.ignored()).isEmpty();
  }

  @Test
  void llamaCppAcceptsAnyModelAndSplitsItsContextBetweenSlots() {
    SimulatorPlan p = plan(new ContainerBuilder().withName("llama-server")
        .withImage("ghcr.io/ggml-org/llama.cpp:server")
        .withArgs("--model", "/models/k/qwen.gguf", "--port", "8080", "--host", "::", "--ctx-size", "8192",
            "--parallel", "4", "-ngl", "99", "--flash-attn", "on").build());
    assertThat(p.port()).isEqualTo(8080);
    assertThat(String.join(" ", p.args())).contains("--served-model-name /models/k/qwen.gguf")
        .contains("--max-num-seqs 4").contains("--accept-any-model").contains("--max-model-len 2048")
        .contains("--preset small-3b-l40s");
    assertThat(p.ignored()).containsExactly("-ngl", "--flash-attn");
  }

  @Test
  void llamaCppServesUnderItsAliasInEitherSpelling() {
    for (List<String> alias : List.of(List.of("--alias", "qwen-chat"), List.of("-a", "qwen-chat"),
        List.of("--alias=qwen-chat"))) {
      List<String> args = new java.util.ArrayList<>(List.of("--model", "/models/k/qwen.gguf", "--port", "8080"));
      args.addAll(alias);
      SimulatorPlan p = plan(new ContainerBuilder().withName("llama-server")
          .withImage("ghcr.io/ggml-org/llama.cpp:server").withArgs(args).build());
      assertThat(String.join(" ", p.args())).as("%s", alias).contains("--served-model-name qwen-chat --model")
          .doesNotContain("--served-model-name /models");
      assertThat(p.ignored()).as("%s", alias).isEmpty();
    }
  }

  @Test
  void tgiReadsFlagsOrEnvironmentAndDefaultsToItsPort() {
    SimulatorPlan p = plan(new ContainerBuilder().withName("tgi")
        .withImage("ghcr.io/huggingface/text-generation-inference:3.3.7")
        .withArgs("--model-id", "mistralai/Mistral-7B-Instruct-v0.3", "--num-shard", "2", "--max-total-tokens",
            "4096", "--max-batch-size", "8", "--quantize", "gptq")
        .addNewEnv().withName("PORT").withValue("8080").endEnv().build());
    assertThat(p.port()).isEqualTo(8080);
    assertThat(String.join(" ", p.args())).contains("--served-model-name mistralai/Mistral-7B-Instruct-v0.3")
        .contains("--accept-any-model").contains("--max-model-len 4096").contains("--max-num-seqs 8")
        .contains("--preset llama-3.1-70b-h100-tp4");
    assertThat(p.ignored()).containsExactly("--quantize");
    SimulatorPlan bare = plan(new ContainerBuilder().withName("tgi")
        .withImage("ghcr.io/huggingface/text-generation-inference:3.3.7").withArgs("--model-id", "m").build());
    assertThat(bare.port()).isEqualTo(80);
    assertThat(String.join(" ", bare.args())).contains("--max-model-len " + SimulatorArgs.DEFAULT_CONTEXT);
  }

  @Test
  void simulatorContainersKeepTheirFlagsButBindThePodAddress() {
    SimulatorPlan p = plan(new ContainerBuilder().withName("sim").withImage("ghcr.io/modelplane/modelplane:0.1.0")
        .withArgs("simulator", "--model", "m", "--host", "0.0.0.0", "--port", "8200", "--max-num-seqs", "3").build());
    assertThat(p.port()).isEqualTo(8200);
    assertThat(p.args()).containsExactly("--model", "m", "--max-num-seqs", "3");
    assertThat(plan(new ContainerBuilder().withName("sim").withImage("ghcr.io/llm-d/llm-d-inference-sim:v0.6")
        .withArgs("--model", "m").addNewPort().withContainerPort(8300).endPort().build()).port()).isEqualTo(8300);
  }

  @Test
  void argvHandlesQuotesContinuationsEscapedReferencesAndUnknownVariables() {
    assertThat(ContainerArgv.shellWords("a 'b c' \"d $X\" e\\ f \\\n g ${Y}h; i", Map.of("X", "x")))
        .containsExactly("a", "b c", "d x", "e f", "g", "h", "i");
    assertThat(ContainerArgv.expandKubernetes("$(A)-$$(A)-$(B)", Map.of("A", "1"))).isEqualTo("1-$(A)-$(B)");
    assertThat(SimulatorArgs.preset(1, 1)).isEqualTo("llama-3.1-8b-h100");
    // On a node that advertises its GPU: the model's geometry (from its name) on that GPU.
    assertThat(SimulatorArgs.hardware("meta-llama/Llama-3.1-70B-Instruct", 4, 4, "NVIDIA-H100-80GB-HBM3"))
        .containsExactly("--model-config", "llama-3.1-70b", "--gpu", "h100", "--tensor-parallel-size", "4");
    assertThat(SimulatorArgs.hardware("Qwen/Qwen3-30B-A3B", 1, 0, "NVIDIA-H100-80GB-HBM3"))
        .containsExactly("--model-config", "qwen3-30b-a3b", "--gpu", "h100", "--tensor-parallel-size", "1");
    // A model argument that is a mount path: the geometry from the first served name that names one.
    assertThat(SimulatorArgs.hardware(java.util.Arrays.asList("/models", "chat", "meta-llama/Llama-3.2-3B-Instruct"), 2,
        2, "NVIDIA-H100-80GB-HBM3"))
        .containsExactly("--model-config", "llama-3.2-3b", "--gpu", "h100", "--tensor-parallel-size", "2");
    // An unknown model: an 8B one for one GPU; a model too large for the GPU: the same fallback.
    assertThat(SimulatorArgs.hardware("/mnt/models/custom", 1, 0, "NVIDIA-L4"))
        .containsExactly("--model-config", "llama-3.1-8b", "--gpu", "l4", "--tensor-parallel-size", "1");
    assertThat(SimulatorArgs.hardware("meta-llama/Llama-3.1-70B", 1, 0, "NVIDIA-L40S"))
        .containsExactly("--model-config", "llama-3.1-8b", "--gpu", "l40s", "--tensor-parallel-size", "1");
    // No GPU, or one the table does not know: the presets by GPU count.
    assertThat(SimulatorArgs.hardware("meta-llama/Llama-3.1-8B", 0, 0, "NVIDIA-H100-80GB-HBM3"))
        .containsExactly("--preset", "small-3b-l40s");
    assertThat(SimulatorArgs.hardware("meta-llama/Llama-3.1-8B", 1, 0, "Tesla-T4"))
        .containsExactly("--preset", "llama-3.1-8b-h100");
    assertThat(SimulatorArgs.preset(8, 3)).isEqualTo("llama-3.1-70b-h100-tp4");
    assertThat(List.of(SimulatorArgs.preset(0, 0))).containsExactly("small-3b-l40s");
  }

  private static Container image(String image) {
    return new ContainerBuilder().withName("c").withImage(image).build();
  }

  @Test
  void vllmsTracesEndpointAndThePodsOtelVariablesReachTheSimulator() {
    SimulatorPlan p = plan(new ContainerBuilder().withName("vllm").withImage("vllm/vllm-openai:v0.25.1")
        .withCommand("vllm", "serve").withArgs("m", "--otlp-traces-endpoint", "http://127.0.0.1:4318")
        .addNewEnv().withName("OTEL_SERVICE_NAME").withValue("vllm-decode").endEnv()
        .addNewEnv().withName("HF_HOME").withValue("/cache").endEnv().build());
    assertThat(String.join(" ", p.args())).contains("--otlp-traces-endpoint http://127.0.0.1:4318");
    assertThat(p.ignored()).doesNotContain("--otlp-traces-endpoint");
    assertThat(p.env()).containsEntry("OTEL_SERVICE_NAME", "vllm-decode").doesNotContainKey("HF_HOME")
        .containsEntry("OTEL_RESOURCE_ATTRIBUTES", "k8s.pod.name=p,k8s.namespace.name=ns");
  }
}
