package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading genai-bench 0.0.5's output (a real run's folder, trimmed of per-request metrics) and the summary codec. */
class BenchmarkSummaryTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  static Path fixture() throws URISyntaxException {
    return Path.of(BenchmarkSummaryTest.class.getResource("/benchmark/genai-bench-0.0.5").toURI());
  }

  @Test
  void readsTheRealRunInConcurrencyOrderWithLatenciesInSeconds() throws Exception {
    List<BenchmarkResult> rows = BenchmarkSummary.read(fixture());

    assertThat(rows).extracting(BenchmarkResult::concurrency).containsExactly(16, 32, 64, 128);
    assertThat(rows).allSatisfy(r -> {
      assertThat(r.scenario()).isEqualTo("dataset");
      assertThat(r.batchSize()).isNull();
      assertThat(r.errorRate()).isZero();
    });
    BenchmarkResult first = rows.get(0);
    assertThat(first.requests()).isEqualTo(419);
    assertThat(first.durationSeconds()).isEqualTo(22.1875414740025);
    assertThat(first.requestsPerSecond()).isEqualTo(18.88447174243929);
    assertThat(first.outputTokensPerSecond()).isEqualTo(951.1644192182309);
    assertThat(first.inputTokensPerSecond()).isEqualTo(9245.053141212074);
    assertThat(first.ttftSeconds()).isEqualTo(new LatencyPercentiles(0.1971904267352492, 0.08432074799929978,
        0.36363391460181427, 1.5562844781215244));
    assertThat(first.e2eLatencySeconds()).isEqualTo(new LatencyPercentiles(0.8225582945012183, 0.7341582650005876,
        1.3151661256000806, 2.2997218038992284));
    assertThat(rows.get(3).requests()).isEqualTo(428);
    assertThat(rows.get(3).ttftSeconds().p99()).isEqualTo(3.2568436535079677);
  }

  @Test
  void readsARealRunInMillisecondsWithTwoScenariosInTheirOrder() throws Exception {
    // genai-bench 0.0.5 with --metrics-time-unit ms, two scenarios, concurrency 1 and 4, through the router's pool
    // path prefix against a simulator.
    Path dir = Path.of(BenchmarkSummaryTest.class.getResource("/benchmark/genai-bench-0.0.5-ms").toURI());
    List<BenchmarkResult> rows = BenchmarkSummary.read(dir);

    assertThat(rows).extracting(BenchmarkResult::scenario, BenchmarkResult::concurrency, BenchmarkResult::requests)
        .containsExactly(tuple("D(100,50)", 1, 25), tuple("D(100,50)", 4, 26), tuple("N(200,50)/(50,10)", 1, 24),
            tuple("N(200,50)/(50,10)", 4, 22));
    assertThat(rows.get(0).ttftSeconds().p50()).isCloseTo(0.02865483499772381, within(1e-15));
    assertThat(rows.get(0).ttftSeconds().p99()).isCloseTo(0.09161781595874332, within(1e-15));
    assertThat(rows.get(3).e2eLatencySeconds().p50()).isCloseTo(0.13946651900187135, within(1e-15));
    assertThat(rows.get(3).durationSeconds()).isLessThan(5); // not a latency: never converted
  }

  @Test
  void millisecondsBecomeSecondsAndScenariosFollowTheMetadataThenBatchSize(@TempDir Path dir) throws Exception {
    copyFixture(dir);
    // The same run written with --metrics-time-unit ms, plus a second scenario that ran first, by batch size.
    for (Path file : iterationFiles(dir)) {
      ObjectNode data = (ObjectNode) JSON.readTree(file.toFile());
      data.put("_time_unit", "ms");
      for (String stat : List.of("ttft", "e2e_latency")) {
        ObjectNode s = (ObjectNode) data.at("/aggregated_metrics/stats/" + stat);
        s.fieldNames().forEachRemaining(k -> s.put(k, s.get(k).asDouble() * 1000));
      }
      JSON.writeValue(file.toFile(), data);
    }
    writeIteration(dir, "D(100,100)", 8, 2, "s");
    writeIteration(dir, "D(100,100)", 8, 1, "s");
    ObjectNode metadata = (ObjectNode) JSON.readTree(dir.resolve("experiment_metadata.json").toFile());
    metadata.putArray("traffic_scenario").add("D(100,100)").add("dataset");
    JSON.writeValue(dir.resolve("experiment_metadata.json").toFile(), metadata);

    List<BenchmarkResult> rows = BenchmarkSummary.read(dir);

    assertThat(rows).extracting(BenchmarkResult::scenario, BenchmarkResult::concurrency, BenchmarkResult::batchSize)
        .containsExactly(tuple("D(100,100)", 8, 1),
            tuple("D(100,100)", 8, 2),
            tuple("dataset", 16, null),
            tuple("dataset", 32, null),
            tuple("dataset", 64, null),
            tuple("dataset", 128, null));
    assertThat(rows.get(2).ttftSeconds().p50()).isCloseTo(0.08432074799929978, within(1e-12));
    assertThat(rows.get(2).e2eLatencySeconds().p99()).isCloseTo(2.2997218038992284, within(1e-12));
    assertThat(rows.get(0).ttftSeconds()).isNull(); // embeddings have no time to first token
    assertThat(rows.get(0).e2eLatencySeconds().p90()).isEqualTo(0.5);
  }

  @Test
  void aFolderWithMetadataButNoFinishedIterationHasNoRows(@TempDir Path dir) throws Exception {
    Files.copy(fixture().resolve("experiment_metadata.json"), dir.resolve("experiment_metadata.json"));
    Files.writeString(dir.resolve("debug_for_run_dataset_16.json"), "{}");
    assertThat(BenchmarkSummary.read(dir)).isEmpty();
  }

  @Test
  void missingFoldersAndBrokenFilesAreNamed(@TempDir Path dir) throws Exception {
    assertThatThrownBy(() -> BenchmarkSummary.read(dir.resolve("absent"))).isInstanceOf(NoSuchFileException.class)
        .hasMessage(dir.resolve("absent") + ": no such directory");
    assertThatThrownBy(() -> BenchmarkSummary.read(dir)).isInstanceOf(NoSuchFileException.class)
        .hasMessage(dir + ": no experiment_metadata.json (not a genai-bench experiment folder, or the benchmark "
            + "never started)");
    copyFixture(dir);
    Path broken = dir.resolve("dataset_text-to-text_num_concurrency_16_time_22s.json");
    Files.writeString(broken, "{\"aggregated_metrics\": ");
    assertThatThrownBy(() -> BenchmarkSummary.read(dir)).isInstanceOf(IOException.class)
        .hasMessageStartingWith(broken + ": not JSON: Unexpected end-of-input");
    Files.writeString(broken, "[1]");
    assertThatThrownBy(() -> BenchmarkSummary.read(dir)).hasMessage(broken + ": expected a JSON object");
    Files.writeString(broken, "{\"_time_unit\": \"s\"}");
    assertThatThrownBy(() -> BenchmarkSummary.read(dir)).hasMessage(broken + ": no aggregated_metrics object");
    Files.writeString(broken, "{\"aggregated_metrics\": {}, \"_time_unit\": \"us\"}");
    assertThatThrownBy(() -> BenchmarkSummary.read(dir))
        .hasMessage(broken + ": unknown _time_unit 'us' (expected s or ms)");
  }

  @Test
  void undefinedStatisticsAreLeftOut(@TempDir Path dir) throws Exception {
    copyFixture(dir);
    Path file = dir.resolve("dataset_text-to-text_num_concurrency_16_time_22s.json");
    // Python's json module writes NaN for a statistic over no values.
    Files.writeString(file, Files.readString(file).replace("\"error_rate\": 0", "\"error_rate\": NaN"));
    assertThat(BenchmarkSummary.read(dir).get(0).errorRate()).isNull();
  }

  @Test
  void encodesTheRealRunCompactlyAndDecodesItWithinRounding() throws Exception {
    List<BenchmarkResult> rows = BenchmarkSummary.read(fixture());
    String message = BenchmarkSummary.encode(rows, BenchmarkSummary.TERMINATION_MESSAGE_BYTES);

    // Latencies travel in milliseconds; a row without a batch size has ten values.
    assertThat(message).startsWith("{\"v\":1,\"s\":[\"dataset\"],\"r\":[[0,16,419,0,22.19,18.88,951.2,9245,"
        + "[197.2,84.32,363.6,1556],[822.6,734.2,1315,2300]],").endsWith("],\"o\":0}");
    BenchmarkSummary.Decoded decoded = BenchmarkSummary.decode(message);
    assertThat(decoded.omitted()).isZero();
    assertThat(decoded.results()).hasSize(4);
    assertThat(decoded.results().get(3).outputTokensPerSecond()).isEqualTo(3470.0);
    assertThat(decoded.results().get(3).ttftSeconds().p99()).isEqualTo(3.257);
  }

  @Test
  void rowsThatDoNotFitAreDroppedFromTheEndAndCounted() throws Exception {
    List<BenchmarkResult> rows = BenchmarkSummary.read(fixture());
    String all = BenchmarkSummary.encode(rows, 100_000);
    String two = BenchmarkSummary.encode(rows, all.length() - 1);
    assertThat(two.length()).isLessThan(all.length());
    BenchmarkSummary.Decoded decoded = BenchmarkSummary.decode(two);
    assertThat(decoded.omitted()).isEqualTo(1);
    assertThat(decoded.results()).extracting(BenchmarkResult::concurrency).containsExactly(16, 32, 64);
    String none = BenchmarkSummary.encode(rows, 27);
    assertThat(none).isEqualTo("{\"v\":1,\"s\":[],\"r\":[],\"o\":4}");
    assertThatThrownBy(() -> BenchmarkSummary.encode(rows, 26)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a benchmark summary of 4 rows needs at least 27 bytes, not 26");
  }

  @Test
  void aLongSummaryFillsTheTerminationMessage() {
    List<BenchmarkResult> many = new ArrayList<>();
    for (int i = 1; i <= 200; i++) {
      many.add(new BenchmarkResult("I(512,512)x" + i, i, null, 1000 + i, 0.0125, 60.123456, 12.3456789, 1234.56789,
          987.654321, new LatencyPercentiles(0.1234567, 0.2345678, 0.3456789, 0.4567891),
          new LatencyPercentiles(1.234567, 2.345678, 3.456789, 4.567891)));
    }
    String message = BenchmarkSummary.encode(many, BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    assertThat(message.getBytes(StandardCharsets.UTF_8).length)
        .isBetween(BenchmarkSummary.TERMINATION_MESSAGE_BYTES - 200, BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    BenchmarkSummary.Decoded decoded = BenchmarkSummary.decode(message);
    assertThat(decoded.results().size() + decoded.omitted()).isEqualTo(200);
    assertThat(decoded.results().size()).isGreaterThan(20);
    assertThat(decoded.results().get(0).scenario()).isEqualTo("I(512,512)x1");
  }

  @Test
  void theDefaultTextRunOfOmeFitsWhole() {
    // OME's five default text-to-text scenarios at genai-bench's nine default concurrency levels.
    List<BenchmarkResult> rows = new ArrayList<>();
    for (String scenario : List.of("N(480,240)/(300,150)", "D(100,100)", "D(100,1000)", "D(2000,200)",
        "D(7800,200)")) {
      for (int c : new int[] {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
        rows.add(new BenchmarkResult(scenario, c, null, 1000 + c, c > 64 ? 0.01234 : 0.0, 300.123456, c * 1.23456,
            c * 123.456789, c * 987.654321, new LatencyPercentiles(0.1234567, 0.02345678, 0.3456789, 1.4567891),
            new LatencyPercentiles(1.234567, 2.345678, 13.456789, 24.567891)));
      }
    }
    String message = BenchmarkSummary.encode(rows, BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    assertThat(message.getBytes(StandardCharsets.UTF_8).length)
        .isLessThanOrEqualTo(BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    assertThat(BenchmarkSummary.decode(message).omitted()).isZero();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "''|benchmark summary is empty",
      "Traceback (most recent call last):|benchmark summary is not JSON: Unrecognized token 'Traceback'",
      "[1,2]|benchmark summary is not a JSON object",
      "{\"v\":2,\"s\":[],\"r\":[],\"o\":0}|benchmark summary has version 2, expected 1",
      "{\"s\":[],\"r\":[],\"o\":0}|benchmark summary has version null, expected 1",
      "{\"v\":1,\"s\":[],\"r\":[],\"o\":-1}|benchmark summary: o (rows omitted) must be a whole number >= 0, not -1",
      "{\"v\":1,\"s\":[],\"r\":{},\"o\":0}|benchmark summary: r (rows) must be an array, not {}",
      "{\"v\":1,\"r\":[],\"o\":0}|benchmark summary: s (scenarios) must be an array, not null",
      "{\"v\":1,\"s\":[1],\"r\":[],\"o\":0}|benchmark summary: s (scenarios) must hold strings, not 1",
      "{\"v\":1,\"v\":1,\"s\":[],\"r\":[],\"o\":0}|benchmark summary is not JSON: Duplicate field 'v'",
      "{\"v\":1,\"s\":[],\"r\":[],\"o\":0} {}|benchmark summary is not JSON: Trailing token",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1]],\"o\":0}"
          + "|benchmark summary row 0: expected an array of 10 or 11 values, not [0,1]",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[\"x\",1,1,0,1,1,1,1,null,null]],\"o\":0}"
          + "|benchmark summary row 0: scenario must be a whole number or null, not \"x\"",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[1,1,1,0,1,1,1,1,null,null]],\"o\":0}"
          + "|benchmark summary row 0: scenario 1 is not an index of s (1 scenarios)",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1.5,1,0,1,1,1,1,null,null]],\"o\":0}"
          + "|benchmark summary row 0: concurrency must be a whole number or null, not 1.5",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1,1,\"0\",1,1,1,1,null,null]],\"o\":0}"
          + "|benchmark summary row 0: errorRate must be a finite number or null, not \"0\"",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1,1,0,1,1,1,1e999,null,null]],\"o\":0}"
          + "|benchmark summary row 0: inputTokensPerSecond must be a finite number or null, not 1E+999",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1,1,0,1,1,1,1,[1,2,3],null]],\"o\":0}"
          + "|benchmark summary row 0: ttftSeconds must be [mean, p50, p90, p99] or null, not [1,2,3]",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1,1,0,1,1,1,1,null,[1,2,true,4]]],\"o\":0}"
          + "|benchmark summary row 0: e2eLatencySeconds.p90 must be a finite number or null, not true",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1,1,0,1,1,1,1,null,[1,2,3,1e-2147483647]]],\"o\":0}"
          + "|benchmark summary row 0: e2eLatencySeconds.p99 must be a finite number or null, not 1E-2147483647",
      "{\"v\":1,\"s\":[\"x\"],\"r\":[[0,1,1,0,1,1,1,1,null,null,1.5]],\"o\":0}"
          + "|benchmark summary row 0: batchSize must be a whole number or null, not 1.5"})
  void malformedSummariesAreRejectedWithWhatIsWrong(String message, String expected) {
    assertThatThrownBy(() -> BenchmarkSummary.decode(message)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(expected);
  }

  private static void copyFixture(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(fixture())) {
      for (Path f : files.toList()) {
        Files.copy(f, dir.resolve(f.getFileName()));
      }
    }
  }

  private static List<Path> iterationFiles(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(f -> f.getFileName().toString().contains("_time_")).toList();
    }
  }

  /** An embeddings-like iteration: no time to first token, E2E latency 0.5 s at p90. */
  private static void writeIteration(Path dir, String scenario, int concurrency, int batch, String unit)
      throws IOException {
    ObjectNode data = JSON.createObjectNode().put("_time_unit", unit);
    ObjectNode m = data.putObject("aggregated_metrics").put("scenario", scenario).put("num_concurrency", concurrency)
        .put("batch_size", batch).put("iteration_type", "batch_size").put("num_requests", 10).put("error_rate", 0.1)
        .put("run_duration", 5.0).put("requests_per_second", 2.0).put("mean_input_throughput_tokens_per_s", 100.0);
    m.putObject("stats").putObject("e2e_latency").put("mean", 0.4).put("p50", 0.4).put("p90", 0.5).put("p99", 0.6);
    String name = scenario.replace("(", "").replace(")", "").replace(",", "_") + "_text-to-embeddings_batch_size_"
        + batch + "_time_5s.json";
    JSON.writeValue(dir.resolve(name).toFile(), data);
  }
}
