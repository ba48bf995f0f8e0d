package dev.modelplane.operator.ome.benchmark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The compact summary of a genai-bench experiment that the {@code results} container writes as its termination
 * message: {@code {"results": [...], "omitted": n}}, at most {@link #TERMINATION_MESSAGE_BYTES} bytes.
 */
public final class BenchmarkSummary {
  /** What the kubelet keeps of a termination message. */
  public static final int TERMINATION_MESSAGE_BYTES = 4096;
  private static final ObjectMapper JSON = new ObjectMapper();

  private BenchmarkSummary() {
  }

  /**
   * The rows of a decoded summary.
   *
   * @param results the iterations the summary holds
   * @param omitted how many iterations did not fit
   */
  public record Decoded(List<BenchmarkResult> results, int omitted) {
  }

  /** Reads a genai-bench experiment folder into rows. */
  public static List<BenchmarkResult> read(Path experimentDir) throws IOException {
    throw new IOException("reading experiment folders is not available in this build: " + experimentDir);
  }

  /** The rows as compact JSON of at most {@code maxBytes} bytes, dropping rows from the end as needed. */
  public static String encode(List<BenchmarkResult> rows, int maxBytes) {
    List<BenchmarkResult> kept = new ArrayList<>(rows);
    while (true) {
      String text = JSON.createObjectNode().<com.fasterxml.jackson.databind.node.ObjectNode>set("results",
          JSON.valueToTree(kept)).put("omitted", rows.size() - kept.size()).toString();
      if (text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length <= maxBytes || kept.isEmpty()) {
        return text;
      }
      kept.remove(kept.size() - 1);
    }
  }

  /**
   * The rows of a summary.
   *
   * @throws IllegalArgumentException when {@code message} is not a summary
   */
  public static Decoded decode(String message) {
    try {
      JsonNode root = JSON.readTree(message);
      if (root == null || !root.isObject() || !root.path("results").isArray()) {
        throw new IllegalArgumentException("not a benchmark summary: expected a JSON object with results");
      }
      List<BenchmarkResult> results = JSON.convertValue(root.get("results"), new TypeReference<>() { });
      return new Decoded(List.copyOf(results), root.path("omitted").asInt(0));
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not a benchmark summary: " + e.getOriginalMessage(), e);
    }
  }
}
