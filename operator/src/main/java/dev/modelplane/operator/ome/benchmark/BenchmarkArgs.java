package dev.modelplane.operator.ome.benchmark;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.BenchmarkJobSpec;
import dev.modelplane.api.ome.v1beta1.BenchmarkTask;
import dev.modelplane.operator.common.EnumValues;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The genai-bench command line of a BenchmarkJob. */
final class BenchmarkArgs {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Map<BenchmarkTask, List<String>> DEFAULT_SCENARIOS = Map.of(
      BenchmarkTask.TEXT_TO_TEXT, List.of("N(480,240)/(300,150)", "D(100,100)", "D(100,1000)", "D(2000,200)",
          "D(7800,200)"),
      BenchmarkTask.IMAGE_TO_TEXT, List.of("I(512,512)", "I(1024,512)", "I(2048,2048)"),
      BenchmarkTask.IMAGE_TO_EMBEDDINGS, List.of("I(512,512)", "I(1024,512)", "I(2048,2048)"),
      BenchmarkTask.TEXT_TO_EMBEDDINGS, List.of("E(64)", "E(128)", "E(256)", "E(512)", "E(1024)"));

  private BenchmarkArgs() {
  }

  /** genai-bench's name of the task: OME's {@code image-to-text} is {@code image-text-to-text}. */
  static String task(BenchmarkTask task) {
    return task == BenchmarkTask.IMAGE_TO_TEXT ? "image-text-to-text" : EnumValues.of(task);
  }

  /**
   * genai-bench's backend: {@code openai} becomes the engine's own backend ({@code vllm}, {@code sglang}) when the
   * service metadata names one, or when the request parameters carry {@code ignore_eos} — genai-bench's plain OpenAI
   * backend drops engine parameters such as that one, and the vLLM backend speaks the same OpenAI API with them.
   */
  static String backend(BenchmarkJobSpec spec, String resolved) {
    if (!"openai".equals(resolved)) {
      return resolved;
    }
    if (spec.serviceMetadata() != null && spec.serviceMetadata().engine() != null) {
      switch (spec.serviceMetadata().engine()) {
        case vLLM:
          return "vllm";
        case SGLang:
          return "sglang";
        default:
          break;
      }
    }
    return spec.additionalRequestParams() != null && spec.additionalRequestParams().containsKey("ignore_eos")
        ? "vllm" : resolved;
  }

  /**
   * Whether the key comes from the container's {@code OPENAI_API_KEY}: for an endpoint given by URL that speaks the
   * OpenAI API, for which genai-bench insists on a key. The env holds a placeholder a podOverride may replace; the
   * argument is only a placeholder too, and genai-bench takes the key from {@code MODEL_API_KEY}, which it prefers.
   */
  static boolean keyFromEnv(BenchmarkTarget target) {
    return target.apiKey() == null && "openai".equals(target.backend());
  }

  /** The scenarios the run uses: the spec's, else OME's defaults for the task (none: genai-bench's own). */
  static List<String> scenarios(BenchmarkJobSpec spec) {
    if (spec.trafficScenarios() != null && !spec.trafficScenarios().isEmpty()) {
      return spec.trafficScenarios();
    }
    return DEFAULT_SCENARIOS.getOrDefault(spec.task(), List.of());
  }

  /**
   * The full argument list of the {@code benchmark} container.
   *
   * @param folder the experiment folder under {@link StorageWiring#RESULTS_DIR}
   */
  static List<String> of(BenchmarkJobSpec spec, BenchmarkTarget target, String folder, StorageWiring output,
      StorageWiring dataset) {
    List<String> a = new ArrayList<>(List.of("genai-bench", "benchmark",
        "--api-backend", backend(spec, target.backend()),
        "--api-base", target.apiBase(),
        "--api-model-name", target.modelName(),
        "--task", task(spec.task()),
        "--max-time-per-run", String.valueOf(spec.maxTimePerIteration()),
        "--max-requests-per-run", String.valueOf(spec.maxRequestsPerIteration())));
    if (target.apiKey() != null) {
      a.addAll(List.of("--api-key", target.apiKey()));
    } else if (keyFromEnv(target)) {
      // genai-bench wants a non-empty --api-key, but uses MODEL_API_KEY instead when that is set: the key itself stays
      // in the environment, out of the command line that every process of the node can read.
      a.addAll(List.of("--api-key", BenchmarkJobBuilder.KEY_PLACEHOLDER));
    }
    if (target.tokenizerArg() != null) {
      a.addAll(List.of("--model-tokenizer", target.tokenizerArg()));
    }
    for (String s : scenarios(spec)) {
      a.addAll(List.of("--traffic-scenario", s));
    }
    if (spec.numConcurrency() != null) {
      for (Integer c : spec.numConcurrency()) {
        a.addAll(List.of("--num-concurrency", String.valueOf(c)));
      }
    }
    if (spec.serviceMetadata() != null) {
      var m = spec.serviceMetadata();
      a.addAll(List.of("--server-engine", m.engine().name(), "--server-version", m.version(),
          "--server-gpu-type", m.gpuType().name(), "--server-gpu-count", String.valueOf(m.gpuCount())));
    }
    if (spec.additionalRequestParams() != null && !spec.additionalRequestParams().isEmpty()) {
      a.addAll(List.of("--additional-request-params", requestParams(spec.additionalRequestParams())));
    }
    if (dataset != null) {
      a.addAll(dataset.args());
    }
    a.addAll(output.args());
    a.addAll(List.of("--experiment-base-dir", StorageWiring.RESULTS_DIR, "--experiment-folder-name", folder));
    return List.copyOf(a);
  }

  /**
   * The request parameters as a JSON object: numbers and booleans as such ({@code temperature} a number,
   * {@code ignore_eos} a boolean), everything else a string. Keys are sorted so the argument is stable.
   */
  static String requestParams(Map<String, String> params) {
    ObjectNode o = JSON.createObjectNode();
    for (Map.Entry<String, String> e : new TreeMap<>(params).entrySet()) {
      String v = e.getValue() == null ? "" : e.getValue().trim();
      if (v.equals("true") || v.equals("false")) {
        o.put(e.getKey(), Boolean.parseBoolean(v));
      } else if (v.matches("[-+]?[0-9]+")) {
        o.put(e.getKey(), new BigDecimal(v).toBigInteger());
      } else if (v.matches("[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?")) {
        o.put(e.getKey(), new BigDecimal(v));
      } else {
        o.put(e.getKey(), e.getValue());
      }
    }
    return o.toString();
  }
}
