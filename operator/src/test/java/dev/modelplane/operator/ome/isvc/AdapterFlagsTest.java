package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import org.junit.jupiter.api.Test;

class AdapterFlagsTest {
  @Test
  void vllmLoadsTheAdapterWithLoraModulesAndEnablesLoraOnce() {
    Container c = new ContainerBuilder().withName("ome-container").withImage("docker.io/vllm/vllm-openai:v0.9.0")
        .withArgs("--port=8080").build();
    AdapterFlags.add(c, "support", "/opt/ml/adapters/support");
    assertThat(c.getArgs()).containsExactly("--port=8080", "--enable-lora", "--lora-modules",
        "support=/opt/ml/adapters/support");
    Container enabled = new ContainerBuilder().withImage("vllm").withArgs("--enable-lora").build();
    AdapterFlags.add(enabled, "a", "/p");
    assertThat(enabled.getArgs()).containsExactly("--enable-lora", "--lora-modules", "a=/p");
  }

  @Test
  void sglangLoadsTheAdapterWithLoraPaths() {
    Container c = new ContainerBuilder().withImage("docker.io/lmsysorg/sglang:v0.5.5")
        .withCommand("python3", "-m", "sglang.launch_server").build();
    AdapterFlags.add(c, "support", "/opt/ml/adapters/support");
    assertThat(c.getArgs()).containsExactly("--lora-paths", "support=/opt/ml/adapters/support");
  }

  @Test
  void aShellCommandLineGetsTheFlagsAtItsEnd() {
    Container args = new ContainerBuilder().withImage("vllm").withCommand("/bin/sh", "-c")
        .withArgs("python3 -m vllm.entrypoints.openai.api_server --port 8080\n").build();
    AdapterFlags.add(args, "a", "/p");
    assertThat(args.getArgs()).containsExactly(
        "python3 -m vllm.entrypoints.openai.api_server --port 8080 --enable-lora --lora-modules a=/p");
    Container command = new ContainerBuilder().withImage("img")
        .withCommand("sh", "-c", "python3 -m sglang.launch_server").build();
    AdapterFlags.add(command, "a", "/p");
    assertThat(command.getCommand()).containsExactly("sh", "-c", "python3 -m sglang.launch_server --lora-paths a=/p");
  }

  @Test
  void aServerWithoutLoraFlagsIsRefusedWithTheContainerNamed() {
    Container c = new ContainerBuilder().withName("ome-container").withImage("ghcr.io/ggml-org/llama.cpp:server")
        .build();
    assertThatThrownBy(() -> AdapterFlags.add(c, "a", "/p")).hasMessage("LoRA adapters are served through vLLM's "
        + "--lora-modules or SGLang's --lora-paths, but the runtime's container ome-container (image "
        + "ghcr.io/ggml-org/llama.cpp:server) runs neither");
  }
}
