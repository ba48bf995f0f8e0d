package dev.modelplane.operator.ome.benchmark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The results of a genai-bench run, read from its experiment folder and carried from the benchmark pod to the
 * operator in the pod's termination message.
 *
 * <p>genai-bench writes {@code experiment_metadata.json} and one file per iteration (a traffic scenario at one
 * concurrency or batch size) named {@code <scenario>_<task>_num_concurrency_<N>_time_<T>s.json} or
 * {@code …_batch_size_<N>_time_<T>s.json}; each holds {@code aggregated_metrics} with latencies in the unit its
 * {@code _time_unit} names ({@code s} or {@code ms}). {@link #read} turns them into rows in seconds, ordered as the run
 * went: scenarios in the order of the metadata, then by concurrency or batch size.
 *
 * <p>{@link #encode} writes the rows as compact JSON that fits a byte budget (a termination message holds at most
 * {@value #TERMINATION_MESSAGE_BYTES} bytes): {@code {"v":1,"s":[scenario…],"r":[row…],"o":omitted}}, the scenarios
 * once each in order of first use, each row an array {@code [scenario index, concurrency, requests, errorRate,
 * durationSeconds, requestsPerSecond, outputTokensPerSecond, inputTokensPerSecond, ttft, e2eLatency]} (plus the batch
 * size, when there is one) whose latencies are {@code [mean, p50, p90, p99]} in milliseconds or {@code null}, and
 * whose decimals are rounded to four significant digits. Rows that do not fit are dropped from the end and counted in
 * {@code o}. {@link #decode} reads it back.
 */
public final class BenchmarkSummary {
  /** The most a container's termination message can hold. */
  public static final int TERMINATION_MESSAGE_BYTES = 4096;

  /** The metadata file genai-bench writes first into every experiment folder. */
  static final String METADATA = "experiment_metadata.json";
  /** An iteration's result file (genai-bench's own loader matches the same names). */
  private static final Pattern ITERATION_FILE =
      Pattern.compile(".+_.+_(?:concurrency|batch_size)_\\d+_time_\\d+s\\.json");
  /** Python's json module writes NaN and Infinity for undefined statistics. */
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

  private BenchmarkSummary() {
  }

  /**
   * What {@link #decode} found.
   *
   * @param results the rows the message carried
   * @param omitted how many rows were left out to fit the message
   */
  public record Decoded(List<BenchmarkResult> results, int omitted) {
    public Decoded {
      results = List.copyOf(results);
    }
  }

  /**
   * The rows of a genai-bench experiment folder, latencies in seconds; empty when the folder holds metadata but no
   * finished iteration.
   *
   * @throws NoSuchFileException when the folder or its {@value #METADATA} does not exist
   * @throws IOException when a file cannot be read, is not JSON, or names an unknown time unit (the message names
   *     the file)
   */
  public static List<BenchmarkResult> read(Path experimentDir) throws IOException {
    if (!Files.isDirectory(experimentDir)) {
      throw new NoSuchFileException(experimentDir.toString(), null, "no such directory");
    }
    Path metadataFile = experimentDir.resolve(METADATA);
    if (!Files.isRegularFile(metadataFile)) {
      throw new NoSuchFileException(experimentDir.toString(), null,
          "no " + METADATA + " (not a genai-bench experiment folder, or the benchmark never started)");
    }
    JsonNode metadata = parse(metadataFile);
    List<String> scenarios = new ArrayList<>();
    metadata.path("traffic_scenario").forEach(s -> scenarios.add(s.asText()));
    String defaultUnit = metadata.path("metrics_time_unit").asText("s");
    String defaultIteration = metadata.path("iteration_type").asText("num_concurrency");
    List<Path> files;
    try (Stream<Path> listing = Files.list(experimentDir)) {
      files = listing.filter(p -> ITERATION_FILE.matcher(p.getFileName().toString()).matches())
          .filter(Files::isRegularFile).sorted().toList();
    }
    List<BenchmarkResult> rows = new ArrayList<>();
    for (Path file : files) {
      rows.add(row(file, parse(file), defaultUnit, defaultIteration));
    }
    rows.sort(Comparator.<BenchmarkResult>comparingInt(r -> scenarioRank(scenarios, r.scenario()))
        .thenComparing(r -> r.scenario() == null ? "" : r.scenario())
        .thenComparingInt(r -> r.batchSize() != null ? r.batchSize() : r.concurrency() != null ? r.concurrency() : 0));
    return List.copyOf(rows);
  }

  /**
   * The rows as compact JSON of at most {@code maxBytes} UTF-8 bytes, dropping rows from the end (and counting them)
   * until it fits.
   *
   * @throws IllegalArgumentException when {@code maxBytes} cannot hold even a summary without rows
   */
  public static String encode(List<BenchmarkResult> rows, int maxBytes) {
    return SummaryCodec.encode(rows, maxBytes);
  }

  /**
   * The rows and omitted count of a message {@link #encode} wrote.
   *
   * @throws IllegalArgumentException when the message is not such a summary; the message says what is wrong
   */
  public static Decoded decode(String message) {
    return SummaryCodec.decode(message);
  }

  private static int scenarioRank(List<String> scenarios, String scenario) {
    int i = scenarios.indexOf(scenario);
    return i < 0 ? scenarios.size() : i;
  }

  private static JsonNode parse(Path file) throws IOException {
    JsonNode node;
    try {
      node = JSON.readTree(file.toFile());
    } catch (JsonProcessingException e) {
      throw new IOException(file + ": not JSON: " + e.getOriginalMessage(), e);
    }
    if (node == null || !node.isObject()) {
      throw new IOException(file + ": expected a JSON object");
    }
    return node;
  }

  private static BenchmarkResult row(Path file, JsonNode data, String defaultUnit, String defaultIteration)
      throws IOException {
    JsonNode m = data.path("aggregated_metrics");
    if (!m.isObject()) {
      throw new IOException(file + ": no aggregated_metrics object");
    }
    String unit = data.path("_time_unit").asText(defaultUnit);
    double toSeconds = switch (unit) {
      case "s" -> 1;
      case "ms" -> 0.001;
      default -> throw new IOException(file + ": unknown _time_unit '" + unit + "' (expected s or ms)");
    };
    boolean batches = "batch_size".equals(m.path("iteration_type").asText(defaultIteration));
    JsonNode stats = m.path("stats");
    return new BenchmarkResult(m.hasNonNull("scenario") ? m.get("scenario").asText() : null,
        integer(m.path("num_concurrency")), batches ? integer(m.path("batch_size")) : null,
        integer(m.path("num_requests")), decimal(m.path("error_rate"), 1), decimal(m.path("run_duration"), 1),
        decimal(m.path("requests_per_second"), 1), decimal(m.path("mean_output_throughput_tokens_per_s"), 1),
        decimal(m.path("mean_input_throughput_tokens_per_s"), 1), percentiles(stats.path("ttft"), toSeconds),
        percentiles(stats.path("e2e_latency"), toSeconds));
  }

  private static LatencyPercentiles percentiles(JsonNode stat, double toSeconds) {
    LatencyPercentiles p = new LatencyPercentiles(decimal(stat.path("mean"), toSeconds),
        decimal(stat.path("p50"), toSeconds), decimal(stat.path("p90"), toSeconds),
        decimal(stat.path("p99"), toSeconds));
    return p.mean() == null && p.p50() == null && p.p90() == null && p.p99() == null ? null : p;
  }

  private static Integer integer(JsonNode n) {
    return n.isNumber() && Double.isFinite(n.doubleValue()) && Math.abs(n.doubleValue()) <= Integer.MAX_VALUE
        ? (int) Math.round(n.doubleValue()) : null;
  }

  private static Double decimal(JsonNode n, double factor) {
    return n.isNumber() && Double.isFinite(n.doubleValue()) ? n.doubleValue() * factor : null;
  }
}
