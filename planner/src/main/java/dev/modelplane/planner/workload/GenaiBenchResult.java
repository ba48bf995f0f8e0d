package dev.modelplane.planner.workload;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The request lengths of a genai-bench run: one iteration's result file
 * ({@code <scenario>_<task>_num_concurrency_<N>_time_<T>s.json}) or an experiment folder of them. Each file's
 * {@code individual_request_metrics} give every request's {@code num_input_tokens} and {@code num_output_tokens}
 * (failed requests, with an {@code error_code}, are left out); {@code aggregated_metrics} give the measured
 * {@code requests_per_second} and {@code run_duration}. genai-bench does not record when each request was sent.
 *
 * @param requests the recorded lengths, files in name order
 * @param measuredRate requests per second over the run: the file's, or all requests over all run durations
 */
record GenaiBenchResult(RecordedRequests requests, Double measuredRate) {
  /** An iteration's result file, as genai-bench names them. */
  static final Pattern RESULT_FILE = Pattern.compile(".+_.+_(?:concurrency|batch_size)_\\d+_time_\\d+s\\.json");
  /** Python's json module writes NaN for undefined statistics. */
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  /**
   * Whether {@code path} is genai-bench output rather than a request log: a folder, a file named as genai-bench names
   * them, or a {@code .json} file unless its first line is a whole JSON object with an arrival time (a request log
   * named {@code .json}).
   */
  static boolean looksLike(Path path) throws IOException {
    String name = String.valueOf(path.getFileName());
    if (Files.isDirectory(path) || RESULT_FILE.matcher(name).matches()) {
      return true;
    }
    if (!name.endsWith(".json")) {
      return false;
    }
    try (Stream<String> lines = Files.lines(path)) {
      String first = lines.filter(l -> !l.isBlank()).findFirst().orElse("");
      JsonNode node = JSON.readTree(first);
      return node == null || !node.isObject() || RequestLog.TIME.stream().noneMatch(node::has);
    } catch (JsonProcessingException | java.io.UncheckedIOException notOneLine) {
      return true;
    }
  }

  static GenaiBenchResult read(Path path) throws IOException {
    List<Path> files;
    if (Files.isDirectory(path)) {
      try (Stream<Path> listing = Files.list(path)) {
        files = listing.filter(p -> RESULT_FILE.matcher(p.getFileName().toString()).matches())
            .filter(Files::isRegularFile).sorted().toList();
      }
      if (files.isEmpty()) {
        throw new IllegalArgumentException(path + ": no genai-bench result files "
            + "(<scenario>_<task>_num_concurrency_<N>_time_<T>s.json) in the folder");
      }
    } else {
      files = List.of(path);
    }
    List<Integer> prompt = new ArrayList<>();
    List<Integer> output = new ArrayList<>();
    double requests = 0;
    double seconds = 0;
    boolean timed = true;
    for (Path file : files) {
      JsonNode root = parse(file);
      JsonNode metrics = root.path("individual_request_metrics");
      if (!metrics.isArray()) {
        throw new IllegalArgumentException(file + ": no individual_request_metrics list (not a genai-bench result "
            + "file of one iteration)");
      }
      int before = prompt.size();
      for (JsonNode m : metrics) {
        JsonNode in = m.path("num_input_tokens");
        JsonNode out = m.path("num_output_tokens");
        if (!m.path("error_code").isNull() && !m.path("error_code").isMissingNode() || !in.canConvertToInt()
            || in.intValue() < 1 || !out.canConvertToInt()) {
          continue;
        }
        prompt.add(in.intValue());
        output.add(Math.max(1, out.intValue()));
      }
      JsonNode aggregated = root.path("aggregated_metrics");
      double rate = aggregated.path("requests_per_second").asDouble(Double.NaN);
      double duration = aggregated.path("run_duration").asDouble(Double.NaN);
      if (rate > 0 && duration > 0) {
        requests += rate * duration;
        seconds += duration;
      } else if (prompt.size() > before) {
        timed = false;
      }
    }
    if (prompt.isEmpty()) {
      throw new IllegalArgumentException(path + ": no successful request with num_input_tokens and "
          + "num_output_tokens in individual_request_metrics");
    }
    int[] in = prompt.stream().mapToInt(Integer::intValue).toArray();
    int[] out = output.stream().mapToInt(Integer::intValue).toArray();
    return new GenaiBenchResult(RecordedRequests.lengthsOnly(in, out),
        timed && seconds > 0 ? Double.valueOf(requests / seconds) : null);
  }

  private static JsonNode parse(Path file) throws IOException {
    try {
      JsonNode node = JSON.readTree(file.toFile());
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException(file + ": expected a JSON object (a genai-bench result file)");
      }
      return node;
    } catch (JsonProcessingException e) {
      int line = e.getLocation() == null ? -1 : e.getLocation().getLineNr();
      throw new IllegalArgumentException(file + (line > 0 ? ": line " + line : "") + ": not JSON: "
          + e.getOriginalMessage().lines().findFirst().orElse(""), e);
    }
  }
}
