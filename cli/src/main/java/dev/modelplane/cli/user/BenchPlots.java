package dev.modelplane.cli.user;

import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The plots of a benchmark report, each as SVG and PNG: output tokens/s and requests/s against concurrency (one line
 * per scenario), and per scenario the TTFT and E2E latency percentiles (p50, p90, p99) against concurrency.
 */
final class BenchPlots {
  private BenchPlots() {
  }

  /** The charts for {@code rows}, by file name (without extension), in report order. */
  static Map<String, Chart> charts(List<BenchmarkResult> rows) {
    Map<String, List<BenchmarkResult>> byScenario = new LinkedHashMap<>();
    rows.forEach(r -> byScenario.computeIfAbsent(r.scenario() == null ? "-" : r.scenario(), k -> new ArrayList<>())
        .add(r));
    String x = rows.stream().allMatch(r -> r.batchSize() != null) ? "batch size"
        : rows.stream().anyMatch(r -> r.batchSize() != null) ? "concurrency or batch size" : "concurrency";
    Map<String, Chart> charts = new LinkedHashMap<>();
    charts.put("throughput-output-tokens", new Chart("Output throughput vs " + x, x, "output tokens/s",
        perScenario(byScenario, BenchmarkResult::outputTokensPerSecond)));
    charts.put("throughput-requests", new Chart("Request throughput vs " + x, x, "requests/s",
        perScenario(byScenario, BenchmarkResult::requestsPerSecond)));
    Set<String> used = new HashSet<>();
    for (Map.Entry<String, List<BenchmarkResult>> e : byScenario.entrySet()) {
      String slug = unique(slug(e.getKey()), used);
      List<Chart.Series> ttft = percentiles(e.getValue(), BenchmarkResult::ttftSeconds, 1000);
      if (!ttft.isEmpty()) {
        charts.put("ttft-" + slug, new Chart("Time to first token: " + e.getKey(), x, "TTFT (ms)", ttft));
      }
      List<Chart.Series> e2e = percentiles(e.getValue(), BenchmarkResult::e2eLatencySeconds, 1);
      if (!e2e.isEmpty()) {
        charts.put("e2e-" + slug, new Chart("End-to-end latency: " + e.getKey(), x, "E2E latency (s)", e2e));
      }
    }
    return charts;
  }

  /** Writes every chart as {@code NAME.svg} and {@code NAME.png} into {@code dir} (created); returns the files. */
  static List<Path> write(List<BenchmarkResult> rows, Path dir) throws IOException {
    Files.createDirectories(dir);
    List<Path> written = new ArrayList<>();
    for (Map.Entry<String, Chart> e : charts(rows).entrySet()) {
      Path svg = dir.resolve(e.getKey() + ".svg");
      Files.write(svg, SvgChart.render(e.getValue()).getBytes(StandardCharsets.UTF_8));
      Path png = dir.resolve(e.getKey() + ".png");
      Files.write(png, PngChart.render(e.getValue()));
      written.add(svg);
      written.add(png);
    }
    return written;
  }

  private static List<Chart.Series> perScenario(Map<String, List<BenchmarkResult>> byScenario,
      Function<BenchmarkResult, Double> metric) {
    List<Chart.Series> series = new ArrayList<>();
    byScenario.forEach((scenario, rows) -> {
      List<Chart.Point> points = points(rows, metric);
      if (!points.isEmpty()) {
        series.add(new Chart.Series(scenario, points));
      }
    });
    return series;
  }

  private static List<Chart.Series> percentiles(List<BenchmarkResult> rows,
      Function<BenchmarkResult, LatencyPercentiles> latency, double scale) {
    List<Chart.Series> series = new ArrayList<>();
    Map<String, Function<LatencyPercentiles, Double>> which = new LinkedHashMap<>();
    which.put("p50", LatencyPercentiles::p50);
    which.put("p90", LatencyPercentiles::p90);
    which.put("p99", LatencyPercentiles::p99);
    which.forEach((name, percentile) -> {
      List<Chart.Point> points = points(rows, r -> {
        LatencyPercentiles p = latency.apply(r);
        Double v = p == null ? null : percentile.apply(p);
        return v == null ? null : v * scale;
      });
      if (!points.isEmpty()) {
        series.add(new Chart.Series(name, points));
      }
    });
    return series;
  }

  private static List<Chart.Point> points(List<BenchmarkResult> rows, Function<BenchmarkResult, Double> metric) {
    List<Chart.Point> points = new ArrayList<>();
    for (BenchmarkResult r : rows) {
      Double y = metric.apply(r);
      if (BenchTable.iteration(r) instanceof Integer x && y != null && Double.isFinite(y)) {
        points.add(new Chart.Point(x, y));
      }
    }
    points.sort(java.util.Comparator.comparingDouble(Chart.Point::x));
    return points;
  }

  /** A scenario as part of a file name: {@code D(100,100)} becomes {@code D_100_100}. */
  static String slug(String scenario) {
    String s = scenario.replaceAll("[^A-Za-z0-9.-]+", "_").replaceAll("^[_.]+|_+$", "");
    return s.isEmpty() ? "scenario" : s.length() > 60 ? s.substring(0, 60) : s;
  }

  private static String unique(String slug, Set<String> used) {
    String name = slug;
    for (int i = 2; !used.add(name); i++) {
      name = slug + "-" + i;
    }
    return name;
  }
}
