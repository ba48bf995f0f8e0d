package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The model servers whose pods the dev cluster runs for real (as simulators), recognised by the container image's
 * repository name. The same patterns feed the kwok stage that leaves these pods' readiness to the pod runner, so
 * the Java side and kwok always agree on which pods are live.
 */
public enum ServerKind {
  /** vLLM's images, and llm-d's, which run vLLM. Default port 8000. */
  VLLM("vllm-openai|vllm|vllm-cpu|vllm-tpu|llm-d|llm-d-cuda|llm-d-rocm|llm-d-xpu", 8000),
  /** SGLang's server images (not its router). Default port 30000. */
  SGLANG("sglang", 30000),
  /** llama.cpp's server images, and LLMKube's Vulkan and ROCm builds of it. Default port 8080. */
  LLAMA_CPP("llama\\.cpp|llmkube-llama-vulkan|llmkube-llama-rocm", 8080),
  /** Hugging Face text-generation-inference. Default port 80. */
  TGI("text-generation-inference", 80),
  /** Simulators: llm-d's inference simulator, or modelplane's own image running {@code simulator}. Port 8000. */
  SIMULATOR("llm-d-inference-sim", 8000);

  /** modelplane's own image, a simulator only when its first argument is {@code simulator}. */
  static final String MODELPLANE_REPOSITORY = "modelplane";

  private final String repositories;
  private final Pattern pattern;
  private final int defaultPort;

  ServerKind(String repositories, int defaultPort) {
    this.repositories = repositories;
    this.pattern = Pattern.compile(imageRegex(repositories));
    this.defaultPort = defaultPort;
  }

  /** The port the server listens on when its command line names none. */
  public int defaultPort() {
    return defaultPort;
  }

  /** A regular expression (valid for Java and Go) matching images whose last path component is one of {@code names}. */
  static String imageRegex(String names) {
    return "(^|/)(" + names + ")([:@]|$)";
  }

  /** The kind of model server this container runs, if the dev cluster knows it. */
  public static Optional<ServerKind> of(Container container) {
    String image = container.getImage() == null ? "" : container.getImage().trim();
    for (ServerKind kind : values()) {
      if (kind.pattern.matcher(image).find()) {
        return Optional.of(kind);
      }
    }
    List<String> args = container.getArgs() == null ? List.of() : container.getArgs();
    if (Pattern.compile(imageRegex(MODELPLANE_REPOSITORY)).matcher(image).find()
        && !args.isEmpty() && "simulator".equals(args.get(0))) {
      return Optional.of(SIMULATOR);
    }
    return Optional.empty();
  }

  /**
   * A jq expression that is {@code true} for a pod with at least one container {@link #of} recognises: the kwok
   * stage selector for live pods.
   */
  public static String podSelectorJq() {
    StringBuilder known = new StringBuilder();
    for (ServerKind kind : values()) {
      known.append(known.isEmpty() ? "" : "|").append(kind.repositories);
    }
    return "[.spec.containers[] | select((.image // \"\" | test(\"" + jqEscape(imageRegex(known.toString()))
        + "\")) or ((.image // \"\" | test(\"" + jqEscape(imageRegex(MODELPLANE_REPOSITORY))
        + "\")) and ((.args // [])[0:1] == [\"simulator\"])))] | length > 0";
  }

  private static String jqEscape(String regex) {
    return regex.replace("\\", "\\\\").replace("\"", "\\\"");
  }
}
