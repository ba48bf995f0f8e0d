package dev.modelplane.operator.ome.benchmark;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.statistics.Statistics;

/**
 * The summary codec on random rows: {@code encode} never exceeds its byte budget and {@code decode} gives back the
 * rows that fit, rounded to four significant digits; on mutated and random messages {@code decode} answers rows or an
 * IllegalArgumentException with a message, nothing else.
 */
class BenchmarkSummaryFuzzTest {
  private static final List<String> SCENARIOS = List.of("D(100,100)", "N(480,240)/(300,150)", "E(1024)", "dataset",
      "I(512,512)", "R(1024)", "A(100,100)", "U(10,100)/(10,100)");
  private static final List<Double> SPECIAL = List.of(0.0, -0.0, Double.MIN_VALUE, Double.MAX_VALUE,
      -Double.MAX_VALUE, 1e-7, 9.99951e14, 1e15, 99995.0, Double.NaN, Double.POSITIVE_INFINITY);

  @Property(tries = 1500, seed = "1801", shrinking = ShrinkingMode.OFF)
  void encodeFitsTheBudgetAndRoundTrips(@ForAll("randoms") Random random,
      @ForAll @IntRange(min = 28, max = 6000) int maxBytes) {
    List<BenchmarkResult> rows = rows(random);
    String message = BenchmarkSummary.encode(rows, maxBytes);
    assertThat(message.getBytes(StandardCharsets.UTF_8).length).isLessThanOrEqualTo(maxBytes);
    BenchmarkSummary.Decoded decoded = BenchmarkSummary.decode(message);
    assertThat(decoded.results().size() + decoded.omitted()).isEqualTo(rows.size());
    for (int i = 0; i < decoded.results().size(); i++) {
      assertClose(decoded.results().get(i), rows.get(i));
    }
    Statistics.label("omitted").collect(decoded.omitted() == 0 ? "none" : "some");
  }

  @Property(tries = 300, seed = "1802", shrinking = ShrinkingMode.OFF)
  void aBudgetLargeEnoughKeepsEveryRow(@ForAll("randoms") Random random) {
    List<BenchmarkResult> rows = rows(random);
    BenchmarkSummary.Decoded decoded = BenchmarkSummary.decode(BenchmarkSummary.encode(rows, 1 << 20));
    assertThat(decoded.omitted()).isZero();
    assertThat(decoded.results()).hasSameSizeAs(rows);
  }

  @Property(tries = 3000, seed = "1803", shrinking = ShrinkingMode.OFF)
  void mutatedMessagesDecodeOrFailCleanly(@ForAll("randoms") Random random,
      @ForAll @IntRange(min = 0, max = 10_000) int position, @ForAll("fragments") String fragment,
      @ForAll @IntRange(min = 0, max = 30) int cut) {
    String message = BenchmarkSummary.encode(rows(random), BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    int at = position % (message.length() + 1);
    String mutated = message.substring(0, at) + fragment + message.substring(Math.min(message.length(), at + cut));
    Statistics.label("outcome").collect(outcome(mutated));
  }

  @Property(tries = 2000, seed = "1804")
  void randomTextFailsCleanly(@ForAll @StringLength(max = 300) String text) {
    Statistics.label("outcome").collect(outcome(text));
  }

  private static String outcome(String message) {
    try {
      BenchmarkSummary.decode(message);
      return "ok";
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).startsWith("benchmark summary");
      return "rejected";
    }
  }

  private static void assertClose(BenchmarkResult actual, BenchmarkResult expected) {
    assertThat(actual.scenario()).isEqualTo(expected.scenario());
    assertThat(actual.concurrency()).isEqualTo(expected.concurrency());
    assertThat(actual.batchSize()).isEqualTo(expected.batchSize());
    assertThat(actual.requests()).isEqualTo(expected.requests());
    assertClose(actual.errorRate(), expected.errorRate());
    assertClose(actual.durationSeconds(), expected.durationSeconds());
    assertClose(actual.requestsPerSecond(), expected.requestsPerSecond());
    assertClose(actual.outputTokensPerSecond(), expected.outputTokensPerSecond());
    assertClose(actual.inputTokensPerSecond(), expected.inputTokensPerSecond());
    for (int i = 0; i < 2; i++) {
      LatencyPercentiles a = i == 0 ? actual.ttftSeconds() : actual.e2eLatencySeconds();
      LatencyPercentiles e = i == 0 ? expected.ttftSeconds() : expected.e2eLatencySeconds();
      assertThat(a == null).isEqualTo(e == null);
      if (a != null) {
        assertClose(a.mean(), e.mean());
        assertClose(a.p50(), e.p50());
        assertClose(a.p90(), e.p90());
        assertClose(a.p99(), e.p99());
      }
    }
  }

  /** Within half a unit of the fourth significant digit (relative 5e-4); non-finite values become null. */
  private static void assertClose(Double actual, Double expected) {
    if (expected == null || !Double.isFinite(expected)) {
      assertThat(actual).isNull();
      return;
    }
    assertThat(actual).isNotNull();
    assertThat(Math.abs(actual - expected)).isLessThanOrEqualTo(Math.abs(expected) * 5e-4 + Double.MIN_VALUE);
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }

  /** Up to 60 rows; drawn from one Random, as jqwik's combinators are slow for lists of records this wide. */
  static List<BenchmarkResult> rows(Random random) {
    List<BenchmarkResult> rows = new ArrayList<>();
    for (int i = random.nextInt(61); i > 0; i--) {
      rows.add(new BenchmarkResult(scenario(random), count(random), count(random), count(random), decimal(random),
          decimal(random), decimal(random), decimal(random), decimal(random), percentiles(random),
          percentiles(random)));
    }
    return rows;
  }

  private static String scenario(Random random) {
    int pick = random.nextInt(20);
    if (pick == 0) {
      return null;
    }
    if (pick < 4) {
      StringBuilder text = new StringBuilder();
      for (int i = random.nextInt(40); i > 0; i--) {
        text.append((char) (random.nextBoolean() ? 32 + random.nextInt(95) : random.nextInt(0x3000)));
      }
      return text.toString();
    }
    return SCENARIOS.get(random.nextInt(SCENARIOS.size()));
  }

  private static Integer count(Random random) {
    int pick = random.nextInt(10);
    return pick == 0 ? null : pick == 1 ? random.nextInt() : random.nextInt(pick == 2 ? Integer.MAX_VALUE : 1000);
  }

  private static LatencyPercentiles percentiles(Random random) {
    return random.nextInt(10) == 0 ? null
        : new LatencyPercentiles(decimal(random), decimal(random), decimal(random), decimal(random));
  }

  private static Double decimal(Random random) {
    int pick = random.nextInt(10);
    return switch (pick) {
      case 0 -> null;
      case 1 -> SPECIAL.get(random.nextInt(SPECIAL.size()));
      case 2 -> Double.longBitsToDouble(random.nextLong());
      case 3, 4 -> random.nextDouble();
      default -> random.nextDouble() * Math.pow(10, random.nextInt(7));
    };
  }

  @Provide
  Arbitrary<String> fragments() {
    return Arbitraries.oneOf(Arbitraries.of("", "[", "]", "{", "}", ",", "null", "\"", "1e999", "-", "NaN", "1.5",
        "\"o\":1", "\\u0000", "[[]]", "true", "9999999999999",
        "1e-2147483647", "1e2147483648", "1e999999999", ",1", "[1]"), Arbitraries.strings().ofMaxLength(8));
  }
}
