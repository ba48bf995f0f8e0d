package dev.modelplane.operator.ome.benchmark;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The compact JSON form of {@link BenchmarkSummary#encode} and {@link BenchmarkSummary#decode}. */
final class SummaryCodec {
  /** Significant digits kept of every decimal. */
  static final int DIGITS = 4;
  /** The format version written as {@code v}. */
  static final int VERSION = 1;
  private static final int FIELDS = 11;
  private static final String HEAD = "{\"v\":" + VERSION + ",\"s\":[";
  private static final String ROWS = "],\"r\":[";
  private static final ObjectMapper STRICT = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  private SummaryCodec() {
  }

  static String encode(List<BenchmarkResult> rows, int maxBytes) {
    // Scenarios are numbered in order of first use, so the rows of any prefix use a prefix of the table.
    List<String> scenarios = rows.stream().map(BenchmarkResult::scenario).filter(Objects::nonNull).distinct()
        .toList();
    Map<String, Integer> index = new HashMap<>();
    scenarios.forEach(sc -> index.put(sc, index.size()));
    List<String> table = scenarios.stream()
        .map(sc -> '"' + new String(JsonStringEncoder.getInstance().quoteAsString(sc)) + '"').toList();
    List<String> encoded = rows.stream().map(r -> row(r, index)).toList();
    long[] rowBytes = new long[encoded.size() + 1];
    long[] tableBytes = new long[table.size() + 1];
    int[] tableSize = new int[encoded.size() + 1];
    for (int i = 0; i < encoded.size(); i++) {
      rowBytes[i + 1] = rowBytes[i] + utf8(encoded.get(i)) + (i > 0 ? 1 : 0);
      String scenario = rows.get(i).scenario();
      tableSize[i + 1] = Math.max(tableSize[i], scenario == null ? 0 : index.get(scenario) + 1);
    }
    for (int i = 0; i < table.size(); i++) {
      tableBytes[i + 1] = tableBytes[i] + utf8(table.get(i)) + (i > 0 ? 1 : 0);
    }
    for (int kept = encoded.size(); kept >= 0; kept--) {
      int omitted = encoded.size() - kept;
      long size = HEAD.length() + tableBytes[tableSize[kept]] + ROWS.length() + rowBytes[kept]
          + tail(omitted).length();
      if (size <= maxBytes) {
        return HEAD + String.join(",", table.subList(0, tableSize[kept])) + ROWS
            + String.join(",", encoded.subList(0, kept)) + tail(omitted);
      }
    }
    int least = HEAD.length() + ROWS.length() + tail(encoded.size()).length();
    throw new IllegalArgumentException("a benchmark summary of " + encoded.size() + " rows needs at least " + least
        + " bytes, not " + maxBytes);
  }

  private static int utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  private static String tail(int omitted) {
    return "],\"o\":" + omitted + "}";
  }

  private static String row(BenchmarkResult r, Map<String, Integer> scenarioIndex) {
    StringBuilder b = new StringBuilder("[");
    b.append(r.scenario() == null ? "null" : scenarioIndex.get(r.scenario()));
    b.append(',').append(r.concurrency()).append(',').append(r.batchSize()).append(',').append(r.requests());
    for (Double d : new Double[] {r.errorRate(), r.durationSeconds(), r.requestsPerSecond(),
        r.outputTokensPerSecond(), r.inputTokensPerSecond()}) {
      b.append(',').append(number(d));
    }
    for (LatencyPercentiles p : new LatencyPercentiles[] {r.ttftSeconds(), r.e2eLatencySeconds()}) {
      b.append(',');
      if (p == null) {
        b.append("null");
      } else {
        b.append('[').append(number(p.mean())).append(',').append(number(p.p50())).append(',')
            .append(number(p.p90())).append(',').append(number(p.p99())).append(']');
      }
    }
    return b.append(']').toString();
  }

  /** A decimal rounded to {@value #DIGITS} significant digits; plain where short, else with an exponent. */
  static String number(Double value) {
    if (value == null || !Double.isFinite(value)) {
      return "null";
    }
    if (value == 0) {
      return "0";
    }
    BigDecimal d = new BigDecimal(value).round(new MathContext(DIGITS, RoundingMode.HALF_EVEN));
    if (Double.isInfinite(d.doubleValue())) {
      d = new BigDecimal(value).round(new MathContext(DIGITS, RoundingMode.DOWN));
    }
    d = d.stripTrailingZeros();
    double abs = Math.abs(value);
    return abs >= 1e-4 && abs < 1e15 ? d.toPlainString() : d.toString();
  }

  static BenchmarkSummary.Decoded decode(String message) {
    if (message == null || message.isBlank()) {
      throw new IllegalArgumentException("benchmark summary is empty");
    }
    JsonNode root;
    try {
      root = STRICT.readTree(message);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("benchmark summary is not JSON: " + e.getOriginalMessage());
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("benchmark summary is not a JSON object");
    }
    JsonNode version = root.get("v");
    if (version == null || !version.isIntegralNumber() || !version.canConvertToInt()
        || version.intValue() != VERSION) {
      throw new IllegalArgumentException("benchmark summary has version " + version + ", expected " + VERSION);
    }
    JsonNode omitted = root.get("o");
    if (omitted == null || !omitted.isIntegralNumber() || !omitted.canConvertToInt() || omitted.intValue() < 0) {
      throw new IllegalArgumentException("benchmark summary: o (rows omitted) must be a whole number >= 0, not "
          + omitted);
    }
    JsonNode rows = root.get("r");
    if (rows == null || !rows.isArray()) {
      throw new IllegalArgumentException("benchmark summary: r (rows) must be an array, not " + rows);
    }
    JsonNode scenarios = root.get("s");
    if (scenarios == null || !scenarios.isArray()) {
      throw new IllegalArgumentException("benchmark summary: s (scenarios) must be an array, not " + scenarios);
    }
    List<String> table = new ArrayList<>();
    for (JsonNode sc : scenarios) {
      if (!sc.isTextual()) {
        throw new IllegalArgumentException("benchmark summary: s (scenarios) must hold strings, not "
            + abbreviate(sc));
      }
      table.add(sc.textValue());
    }
    List<BenchmarkResult> results = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      results.add(row(rows.get(i), i, table));
    }
    return new BenchmarkSummary.Decoded(results, omitted.intValue());
  }

  private static BenchmarkResult row(JsonNode row, int index, List<String> scenarios) {
    String where = "benchmark summary row " + index;
    if (!row.isArray() || row.size() != FIELDS) {
      throw new IllegalArgumentException(where + ": expected an array of " + FIELDS + " values, not "
          + abbreviate(row));
    }
    Integer scenario = integer(row.get(0), where, "scenario");
    if (scenario != null && (scenario < 0 || scenario >= scenarios.size())) {
      throw new IllegalArgumentException(where + ": scenario " + scenario + " is not an index of s ("
          + scenarios.size() + " scenarios)");
    }
    return new BenchmarkResult(scenario == null ? null : scenarios.get(scenario),
        integer(row.get(1), where, "concurrency"), integer(row.get(2), where, "batchSize"),
        integer(row.get(3), where, "requests"), decimal(row.get(4), where, "errorRate"),
        decimal(row.get(5), where, "durationSeconds"), decimal(row.get(6), where, "requestsPerSecond"),
        decimal(row.get(7), where, "outputTokensPerSecond"), decimal(row.get(8), where, "inputTokensPerSecond"),
        percentiles(row.get(9), where, "ttftSeconds"), percentiles(row.get(10), where, "e2eLatencySeconds"));
  }

  private static LatencyPercentiles percentiles(JsonNode n, String where, String field) {
    if (n.isNull()) {
      return null;
    }
    if (!n.isArray() || n.size() != 4) {
      throw new IllegalArgumentException(where + ": " + field + " must be [mean, p50, p90, p99] or null, not "
          + abbreviate(n));
    }
    return new LatencyPercentiles(decimal(n.get(0), where, field + ".mean"), decimal(n.get(1), where, field + ".p50"),
        decimal(n.get(2), where, field + ".p90"), decimal(n.get(3), where, field + ".p99"));
  }

  private static Integer integer(JsonNode n, String where, String field) {
    if (n.isNull()) {
      return null;
    }
    if (!n.isIntegralNumber() || !n.canConvertToInt()) {
      throw new IllegalArgumentException(where + ": " + field + " must be a whole number or null, not "
          + abbreviate(n));
    }
    return n.intValue();
  }

  private static Double decimal(JsonNode n, String where, String field) {
    if (n.isNull()) {
      return null;
    }
    if (!n.isNumber() || !Double.isFinite(n.doubleValue())) {
      throw new IllegalArgumentException(where + ": " + field + " must be a finite number or null, not "
          + abbreviate(n));
    }
    return n.doubleValue();
  }

  private static String abbreviate(JsonNode n) {
    String text = n.isNumber() ? n.asText() : n.toString();
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }
}
