package dev.modelplane.operator.ome.benchmark;

import java.util.List;
import java.util.Map;

/**
 * The endpoint a benchmark sends its requests to, as resolved from the spec and the cluster.
 *
 * @param apiBase the URL genai-bench's {@code --api-base} gets
 * @param backend genai-bench's {@code --api-backend}
 * @param apiKey the {@code --api-key}, or null for none
 * @param modelName the model name the requests carry, or null while it is not known
 * @param tokenizer the {@code --model-tokenizer}: a directory on the node, or null for the model name (a Hub id)
 * @param modelProbes base URLs to ask {@code /v1/models}, in order (ready pods first, then {@code apiBase})
 * @param baseFromSpec whether {@code apiBase} is the user's (a URL endpoint, an InferencePool's {@code routerUrl})
 *     rather than found on the cluster: the operator then asks it only under its model inspection policy
 */
record BenchmarkTarget(String apiBase, String backend, String apiKey, String modelName, Tokenizer tokenizer,
    List<String> modelProbes, boolean baseFromSpec) {

  BenchmarkTarget {
    modelProbes = List.copyOf(modelProbes);
  }

  /** A target whose base the operator found on the cluster. */
  BenchmarkTarget(String apiBase, String backend, String apiKey, String modelName, Tokenizer tokenizer,
      List<String> modelProbes) {
    this(apiBase, backend, apiKey, modelName, tokenizer, modelProbes, false);
  }

  /** This target with the model name the endpoint reported. */
  BenchmarkTarget withModelName(String name) {
    return new BenchmarkTarget(apiBase, backend, apiKey, name, tokenizer, modelProbes, baseFromSpec);
  }

  /** The tokenizer argument: the model's directory, else the model name. */
  String tokenizerArg() {
    return tokenizer == null ? modelName : tokenizer.path();
  }

  /**
   * A base model's directory on the node, mounted by hostPath at the same path as OME's serving pods do.
   *
   * @param path the model directory ({@code storage.path})
   * @param nodeSelector the model's node selector: the pod must run where the agent placed the model
   */
  record Tokenizer(String path, Map<String, String> nodeSelector) {
    Tokenizer {
      nodeSelector = nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector);
    }
  }
}
