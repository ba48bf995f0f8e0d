package dev.modelplane.cli.user;

import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.function.Function;

/** Benchmark results as a table: one row per scenario and concurrency (or batch size). */
final class BenchTable {
  private BenchTable() {
  }

  /** Prints {@code rows} under {@code indent}-prefixed headers. */
  static void print(List<BenchmarkResult> rows, String indent, PrintWriter out) {
    boolean batches = !rows.isEmpty() && rows.stream().allMatch(r -> r.batchSize() != null);
    Table t = new Table(indent + "SCENARIO", batches ? "BATCH SIZE" : "CONCURRENCY", "REQUESTS", "ERRORS",
        "REQ/S", "OUTPUT TOK/S", "TTFT MS P50/P90/P99", "E2E S P50/P90/P99");
    for (BenchmarkResult r : rows) {
      t.row(indent + (r.scenario() == null ? "-" : r.scenario()), String.valueOf(iteration(r)),
          r.requests() == null ? "-" : r.requests().toString(),
          r.errorRate() == null ? "-" : number(r.errorRate() * 100) + "%", number(r.requestsPerSecond()),
          number(r.outputTokensPerSecond()), percentiles(r.ttftSeconds(), 1000), percentiles(r.e2eLatencySeconds(), 1));
    }
    t.print(out);
  }

  /** The batch size of a batch iteration, else the concurrency ({@code -} when neither is known). */
  static Object iteration(BenchmarkResult r) {
    return r.batchSize() != null ? r.batchSize() : r.concurrency() != null ? r.concurrency() : "-";
  }

  private static String percentiles(LatencyPercentiles p, double scale) {
    if (p == null) {
      return "-";
    }
    Function<Double, String> f = v -> v == null ? "-" : number(v * scale);
    return f.apply(p.p50()) + "/" + f.apply(p.p90()) + "/" + f.apply(p.p99());
  }

  /** Three significant digits, whole numbers from 1000 on; {@code -} when unknown. */
  static String number(Double v) {
    if (v == null || !Double.isFinite(v)) {
      return "-";
    }
    if (Math.abs(v) >= 1000) {
      return String.valueOf(Math.round(v));
    }
    if (v == 0) {
      return "0";
    }
    return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
  }
}
