package dev.modelplane.operator.llmkube.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;
import dev.modelplane.operator.modelsource.CacheKey;
import dev.modelplane.operator.modelsource.ModelLayout;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelArgumentTest {
  private static final Flag MODEL = new Flag("--model");
  private static final Flag REVISION = new Flag("--revision");

  @Test
  void aHubRepositoryTheServerFetchesIsPassedByIdWithItsRevision() {
    assertThat(argument("source: hf://Qwen/Qwen3-8B@v1.0\n")).isEqualTo(new ModelArgument("Qwen/Qwen3-8B", "v1.0"));
    assertThat(argument("source: hf://Qwen/Qwen3-8B\n")).isEqualTo(new ModelArgument("Qwen/Qwen3-8B", null));
  }

  @Test
  void aStagedModelIsPassedByItsPathInTheContainer() {
    assertThat(argument("source: pvc://store/llama.gguf\n"))
        .isEqualTo(new ModelArgument("/model-source/llama.gguf", null));
    assertThat(argument("source: hf://org/repo@v2\nfiles: [a.safetensors]\nformat: safetensors\n"))
        .isEqualTo(new ModelArgument("/models/" + CacheKey.of("hf://org/repo@v2"), null));
  }

  @Test
  void revisionFollowsTheModelAndExtraArgsWin() {
    ModelArgument pinned = new ModelArgument("org/repo", "main");
    ArgList positional = new ArgList(List.of());
    pinned.addPositional(positional, REVISION);
    assertThat(positional.build()).containsExactly("org/repo", "--revision", "main");

    ArgList option = new ArgList(List.of("--revision=dev"));
    pinned.addOption(option, MODEL, REVISION);
    assertThat(option.build()).containsExactly("--model", "org/repo");

    ArgList path = new ArgList(List.of());
    new ModelArgument("/models/m", null).addOption(path, MODEL, REVISION);
    assertThat(path.build()).containsExactly("--model", "/models/m");
  }

  private static ModelArgument argument(String modelSpec) {
    return ModelArgument.of(ModelLayout.of(TestObjects.model(modelSpec), "https://huggingface.co"));
  }
}
