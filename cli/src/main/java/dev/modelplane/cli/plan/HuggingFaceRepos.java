package dev.modelplane.cli.plan;

import java.util.Map;

/** The Hugging Face repository each built-in geometry was taken from, for manifests that download the model. */
final class HuggingFaceRepos {
  private static final Map<String, String> REPOS = Map.of(
      "llama-3.1-8b", "meta-llama/Llama-3.1-8B-Instruct",
      "llama-3.1-70b", "meta-llama/Llama-3.1-70B-Instruct",
      "llama-3.2-3b", "meta-llama/Llama-3.2-3B-Instruct",
      "llama-3.2-1b", "meta-llama/Llama-3.2-1B-Instruct",
      "qwen2.5-7b", "Qwen/Qwen2.5-7B-Instruct",
      "qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B-Instruct",
      "qwen3-30b-a3b", "Qwen/Qwen3-30B-A3B",
      "mixtral-8x7b", "mistralai/Mixtral-8x7B-Instruct-v0.1");

  private HuggingFaceRepos() {
  }

  /** The repository of the built-in geometry {@code name}, or null for a geometry read from a file. */
  static String of(String name) {
    return REPOS.get(name);
  }
}
