package dev.modelplane.cli.plan;

import dev.modelplane.cli.user.Chart;
import dev.modelplane.cli.user.PngChart;
import dev.modelplane.cli.user.SvgChart;
import dev.modelplane.planner.search.LoadSweep;
import dev.modelplane.planner.search.PlanSearch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code plan --plot}: latency against offered load for the best configurations, one line each. The named file gets
 * TTFT p90; a sibling file ({@code NAME-e2e.svg}) gets end-to-end p90.
 */
final class PlanPlot {
  private PlanPlot() {
  }

  /**
   * Checks that {@code file} ends in .svg or .png.
   *
   * @throws IllegalArgumentException naming the flag
   */
  static void check(Path file) {
    String name = file.getFileName() == null ? "" : file.getFileName().toString().toLowerCase(Locale.ROOT);
    if (!name.endsWith(".svg") && !name.endsWith(".png")) {
      throw new IllegalArgumentException("--plot " + file + ": the file name must end in .svg or .png");
    }
  }

  /** The TTFT chart and the E2E chart. */
  static List<Chart> charts(List<LoadSweep> sweeps) {
    return List.of(
        chart(sweeps, "Time to first token (p90) vs load", "TTFT p90 (ms)", p -> p.ttftP90() * 1000),
        chart(sweeps, "End-to-end latency (p90) vs load", "E2E p90 (s)", LoadSweep.Point::e2eP90));
  }

  private static Chart chart(List<LoadSweep> sweeps, String title, String yLabel,
      ToDoubleFunction<LoadSweep.Point> metric) {
    List<Chart.Series> series = new ArrayList<>();
    for (LoadSweep sweep : sweeps) {
      List<Chart.Point> points = new ArrayList<>();
      for (LoadSweep.Point p : sweep.points()) {
        double y = metric.applyAsDouble(p);
        if (Double.isFinite(y)) {
          points.add(new Chart.Point(p.requestsPerSecond(), y));
        }
      }
      series.add(new Chart.Series(PlanSearch.label(sweep.candidate()), points));
    }
    return new Chart(title, "offered load (requests/s)", yLabel, series);
  }

  /** Writes the charts to {@code file} and its {@code -e2e} sibling, as SVG or PNG by extension; returns both. */
  static List<Path> write(Path file, List<LoadSweep> sweeps) throws IOException {
    List<Chart> charts = charts(sweeps);
    String name = file.getFileName().toString();
    int dot = name.lastIndexOf('.');
    Path e2e = file.resolveSibling(name.substring(0, dot) + "-e2e" + name.substring(dot));
    write(file, charts.get(0));
    write(e2e, charts.get(1));
    return List.of(file, e2e);
  }

  private static void write(Path file, Chart chart) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    if (file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".png")) {
      Files.write(file, PngChart.render(chart));
    } else {
      Files.writeString(file, SvgChart.render(chart), StandardCharsets.UTF_8);
    }
  }
}
