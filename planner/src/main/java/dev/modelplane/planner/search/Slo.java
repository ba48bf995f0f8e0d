package dev.modelplane.planner.search;

import dev.modelplane.common.text.GoDuration;
import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.fleet.LatencySummary;
import java.time.Duration;
import java.util.Locale;

/**
 * A service-level objective a plan must meet: a latency percentile at most a bound ({@code ttft-p90=500ms},
 * {@code itl-p50=20ms}, {@code e2e-p99=10s}) or a floor on output tokens per second ({@code tokens-per-second=5000}).
 *
 * @param metric what is measured
 * @param percentile 50, 90 or 99 for a latency; 0 for throughput
 * @param target the bound: seconds for a latency, output tokens per second for throughput
 * @param text the objective as the user wrote it (normalised), for reports
 */
public record Slo(Metric metric, int percentile, double target, String text) {
  private static final String FLAG = "--slo ";

  /** What an objective measures. */
  public enum Metric {
    TTFT("ttft"), ITL("itl"), E2E("e2e"), OUTPUT_TOKENS_PER_SECOND("tokens-per-second");

    private final String label;

    Metric(String label) {
      this.label = label;
    }

    /** The name used on the command line. */
    public String label() {
      return label;
    }

    /** True for a latency (a ceiling), false for throughput (a floor). */
    public boolean latency() {
      return this != OUTPUT_TOKENS_PER_SECOND;
    }
  }

  /**
   * Parses {@code metric-pNN=DURATION} (metric ttft, itl or e2e; percentile p50, p90 or p99; a Go duration such as
   * 500ms or 1.5s) or {@code tokens-per-second=N}.
   *
   * @throws IllegalArgumentException one line naming the part at fault
   */
  public static Slo parse(String spec) {
    String s = spec == null ? "" : spec.strip();
    int eq = s.indexOf('=');
    if (eq < 0) {
      throw bad(spec, "expected METRIC-PERCENTILE=DURATION (e.g. ttft-p90=500ms) or tokens-per-second=N");
    }
    String name = s.substring(0, eq).strip().toLowerCase(Locale.ROOT);
    String value = s.substring(eq + 1).strip();
    if (name.equals(Metric.OUTPUT_TOKENS_PER_SECOND.label())) {
      return new Slo(Metric.OUTPUT_TOKENS_PER_SECOND, 0, throughput(spec, value), name + "=" + value);
    }
    int dash = name.lastIndexOf('-');
    String metricName = dash < 0 ? name : name.substring(0, dash);
    Metric metric = switch (metricName) {
      case "ttft" -> Metric.TTFT;
      case "itl" -> Metric.ITL;
      case "e2e" -> Metric.E2E;
      default -> throw bad(spec, "metric must be ttft, itl, e2e or tokens-per-second, got \"" + metricName + "\"");
    };
    String p = dash < 0 ? "" : name.substring(dash + 1);
    int percentile = switch (p) {
      case "p50" -> 50;
      case "p90" -> 90;
      case "p99" -> 99;
      default -> throw bad(spec, "percentile must be p50, p90 or p99" + (p.isEmpty() ? "" : ", got \"" + p + "\""));
    };
    return new Slo(metric, percentile, latency(spec, value), name + "=" + value);
  }

  private static double latency(String spec, String value) {
    Duration d;
    try {
      d = GoDuration.parse(value);
    } catch (IllegalArgumentException e) {
      throw bad(spec, "\"" + value + "\" is not a duration (e.g. 500ms, 1.5s, 250us)");
    }
    if (d.isNegative() || d.isZero()) {
      throw bad(spec, "the bound must be positive, got " + value);
    }
    return d.toNanos() / 1e9;
  }

  private static double throughput(String spec, String value) {
    double v;
    try {
      v = Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw bad(spec, "\"" + value + "\" is not a number of output tokens per second");
    }
    if (!(v > 0) || Double.isInfinite(v)) {
      throw bad(spec, "output tokens per second must be positive, got " + value);
    }
    return v;
  }

  private static IllegalArgumentException bad(String spec, String why) {
    return new IllegalArgumentException(FLAG + spec + ": " + why);
  }

  /** What {@code result} measured for this objective: seconds, or output tokens per second; NaN when unmeasured. */
  public double observed(FleetResult result) {
    return switch (metric) {
      case TTFT -> at(result.ttft());
      case ITL -> at(result.itl());
      case E2E -> at(result.e2e());
      case OUTPUT_TOKENS_PER_SECOND -> result.outputTokensPerSecond();
    };
  }

  private double at(LatencySummary summary) {
    return summary.percentile(percentile);
  }

  /**
   * How comfortably {@code result} meets the objective: bound / observed for a latency, observed / floor for
   * throughput; at least 1 when met, below 1 when missed, 0 when nothing was measured.
   */
  public double margin(FleetResult result) {
    double v = observed(result);
    if (Double.isNaN(v)) {
      return 0;
    }
    if (metric.latency()) {
      return v <= 0 ? Double.POSITIVE_INFINITY : target / v;
    }
    return v / target;
  }

  /** True when {@code result} meets the objective. */
  public boolean met(FleetResult result) {
    return margin(result) >= 1;
  }

  /** The observed value in the objective's unit, for messages: {@code 612ms} or {@code 4810 tokens/s}. */
  public String describe(double value) {
    if (Double.isNaN(value)) {
      return "nothing measured";
    }
    if (!metric.latency()) {
      return String.format(Locale.ROOT, "%.0f output tokens/s", value);
    }
    return value >= 1 ? String.format(Locale.ROOT, "%.2fs", value)
        : String.format(Locale.ROOT, "%.1fms", value * 1000);
  }

  @Override
  public String toString() {
    return text;
  }
}
