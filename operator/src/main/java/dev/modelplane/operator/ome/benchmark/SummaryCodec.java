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
  /** Values of a row without a batch size; a row with one has it as one more. */
  private static final int FIELDS = 10;
  /** Latencies are carried in milliseconds: shorter than seconds at the same precision. */
  private static final int MS = 3;
  private static final String HEAD = "{\"v\":" + VERSION + ",\"s\":[";
  private static final String ROWS = "],\"r\":[";
  private static final ObjectMapper STRICT = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS).build();

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
    b.append(',').append(r.concurrency()).append(',').append(r.requests());
    for (Double d : new Double[] {r.errorRate(), r.durationSeconds(), r.requestsPerSecond(),
        r.outputTokensPerSecond(), r.inputTokensPerSecond()}) {
      b.append(',').append(number(d, 0));
    }
    for (LatencyPercentiles p : new LatencyPercentiles[] {r.ttftSeconds(), r.e2eLatencySeconds()}) {
      b.append(',');
      if (p == null) {
        b.append("null");
      } else {
        b.append('[').append(number(p.mean(), MS)).append(',').append(number(p.p50(), MS)).append(',')
            .append(number(p.p90(), MS)).append(',').append(number(p.p99(), MS)).append(']');
      }
    }
    if (r.batchSize() != null) {
      b.append(',').append(r.batchSize());
    }
    return b.append(']').toString();
  }

  /**
   * {@code value} times 10^{@code shift}, rounded to {@value #DIGITS} significant digits (down where rounding half
   * even would leave the range of a double); plain where short, else with an exponent.
   */
  static String number(Double value, int shift) {
    if (value == null || !Double.isFinite(value)) {
      return "null";
    }
    if (value == 0) {
      return "0";
    }
    BigDecimal exact = new BigDecimal(value).movePointRight(shift);
    BigDecimal d = exact.round(new MathContext(DIGITS, RoundingMode.HALF_EVEN));
    if (Double.isInfinite(d.movePointLeft(shift).doubleValue())) {
      d = exact.round(new MathContext(DIGITS, RoundingMode.DOWN));
    }
    d = d.stripTrailingZeros();
    BigDecimal abs = d.abs();
    return abs.compareTo(new BigDecimal("1e-4")) >= 0 && abs.compareTo(new BigDecimal("1e15")) < 0
        ? d.toPlainString() : d.toString();
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
    } catch (NumberFormatException e) { // an exponent beyond an int
      throw new IllegalArgumentException("benchmark summary is not JSON: a number out of range: " + e.getMessage());
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
    if (!row.isArray() || row.size() != FIELDS && row.size() != FIELDS + 1) {
      throw new IllegalArgumentException(where + ": expected an array of " + FIELDS + " or " + (FIELDS + 1)
          + " values, not " + abbreviate(row));
    }
    Integer scenario = integer(row.get(0), where, "scenario");
    if (scenario != null && (scenario < 0 || scenario >= scenarios.size())) {
      throw new IllegalArgumentException(where + ": scenario " + scenario + " is not an index of s ("
          + scenarios.size() + " scenarios)");
    }
    return new BenchmarkResult(scenario == null ? null : scenarios.get(scenario),
        integer(row.get(1), where, "concurrency"),
        row.size() > FIELDS ? integer(row.get(FIELDS), where, "batchSize") : null,
        integer(row.get(2), where, "requests"), decimal(row.get(3), where, "errorRate", 0),
        decimal(row.get(4), where, "durationSeconds", 0), decimal(row.get(5), where, "requestsPerSecond", 0),
        decimal(row.get(6), where, "outputTokensPerSecond", 0), decimal(row.get(7), where, "inputTokensPerSecond", 0),
        percentiles(row.get(8), where, "ttftSeconds"), percentiles(row.get(9), where, "e2eLatencySeconds"));
  }

  private static LatencyPercentiles percentiles(JsonNode n, String where, String field) {
    if (n.isNull()) {
      return null;
    }
    if (!n.isArray() || n.size() != 4) {
      throw new IllegalArgumentException(where + ": " + field + " must be [mean, p50, p90, p99] or null, not "
          + abbreviate(n));
    }
    return new LatencyPercentiles(decimal(n.get(0), where, field + ".mean", MS),
        decimal(n.get(1), where, field + ".p50", MS), decimal(n.get(2), where, field + ".p90", MS),
        decimal(n.get(3), where, field + ".p99", MS));
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

  /** A number, divided by 10^{@code shift}. */
  private static Double decimal(JsonNode n, String where, String field, int shift) {
    if (n.isNull()) {
      return null;
    }
    double value;
    try {
      value = n.isNumber() ? n.decimalValue().movePointLeft(shift).doubleValue() : Double.NaN;
    } catch (ArithmeticException e) { // a scale beyond an int
      value = Double.NaN;
    }
    if (!Double.isFinite(value)) {
      throw new IllegalArgumentException(where + ": " + field + " must be a finite number or null, not "
          + abbreviate(n));
    }
    return value;
  }

  private static String abbreviate(JsonNode n) {
    String text = n.isNumber() ? n.asText() : n.toString();
    return text.length() <= 40 ? text : text.substring(0, 37) + "...";
  }
}
