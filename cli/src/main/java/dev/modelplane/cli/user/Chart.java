package dev.modelplane.cli.user;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * A line chart of a few series over shared axes, and where everything goes on a canvas; {@link SvgChart} and
 * {@link PngChart} draw it. The x axis is logarithmic (base 2) when the values span a factor of 8 or more, as
 * concurrency ladders do; its ticks are the x values themselves. The y axis starts at 0 and ends at a round number.
 *
 * @param title the chart's title
 * @param xLabel the x axis's label
 * @param yLabel the y axis's label
 * @param series the lines; points with a null y are left out
 */
public record Chart(String title, String xLabel, String yLabel, List<Series> series) {
  static final int WIDTH = 760;
  static final int HEIGHT = 460;
  static final int LEFT = 80;
  static final int RIGHT = 190;
  static final int TOP = 50;
  static final int BOTTOM = 60;
  /** Line colours, distinguishable for the common forms of colour blindness (Okabe and Ito). */
  static final List<String> COLORS = List.of("#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9",
      "#F0E442", "#000000");

  public Chart {
    series = List.copyOf(series);
  }

  /**
   * One line.
   *
   * @param name the legend's text
   * @param points the points, in x order
   */
  public record Series(String name, List<Point> points) {
    public Series {
      points = List.copyOf(points);
    }
  }

  /** One point of a series. */
  public record Point(double x, double y) {
  }

  /** A tick: where (canvas pixels along its axis) and its label. */
  record Tick(double at, String label) {
  }

  double plotWidth() {
    return WIDTH - LEFT - RIGHT;
  }

  double plotHeight() {
    return HEIGHT - TOP - BOTTOM;
  }

  private List<Double> xs() {
    TreeSet<Double> xs = new TreeSet<>();
    series.forEach(s -> s.points().forEach(p -> xs.add(p.x())));
    return new ArrayList<>(xs);
  }

  private boolean logX() {
    List<Double> xs = xs();
    return !xs.isEmpty() && xs.get(0) > 0 && xs.get(xs.size() - 1) / xs.get(0) >= 8;
  }

  /** The canvas x of a data x. */
  double x(double value) {
    List<Double> xs = xs();
    if (xs.isEmpty()) {
      return LEFT;
    }
    boolean log = logX();
    double lo = log ? Math.log(xs.get(0)) : Math.min(0, xs.get(0));
    double hi = log ? Math.log(xs.get(xs.size() - 1)) : xs.get(xs.size() - 1);
    double v = log ? Math.log(value) : value;
    double pad = plotWidth() * 0.04;
    return hi == lo ? LEFT + plotWidth() / 2 : LEFT + pad + (v - lo) / (hi - lo) * (plotWidth() - 2 * pad);
  }

  /** The round number the y axis ends at. */
  double yMax() {
    double max = series.stream().flatMap(s -> s.points().stream()).mapToDouble(Point::y).max().orElse(1);
    return max <= 0 ? 1 : niceStep(max / 5) * Math.ceil(max / niceStep(max / 5));
  }

  /** The canvas y of a data y. */
  double y(double value) {
    return TOP + plotHeight() - value / yMax() * plotHeight();
  }

  /** The x ticks: every x value, thinned to at most ten. */
  List<Tick> xTicks() {
    List<Double> xs = xs();
    int every = Math.max(1, (int) Math.ceil(xs.size() / 10.0));
    List<Tick> ticks = new ArrayList<>();
    for (int i = 0; i < xs.size(); i += every) {
      ticks.add(new Tick(x(xs.get(i)), format(xs.get(i))));
    }
    return ticks;
  }

  /** The y ticks: 0 to {@link #yMax} in round steps. */
  List<Tick> yTicks() {
    double max = yMax();
    double step = niceStep(max / 5);
    List<Tick> ticks = new ArrayList<>();
    for (int i = 0; i * step <= max * (1 + 1e-9); i++) {
      ticks.add(new Tick(y(i * step), format(i * step)));
    }
    return ticks;
  }

  /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
  static double niceStep(double raw) {
    double power = Math.pow(10, Math.floor(Math.log10(raw)));
    double f = raw / power;
    return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * power;
  }

  /** A number as a tick label: no needless decimals, thousands as k, millions as M. */
  static String format(double v) {
    if (Math.abs(v) >= 10_000_000) {
      return format(v / 1_000_000) + "M";
    }
    if (Math.abs(v) >= 10_000) {
      return format(v / 1000) + "k";
    }
    if (v == Math.rint(v)) {
      return Long.toString((long) v);
    }
    String s = String.format(java.util.Locale.ROOT, Math.abs(v) >= 1 ? "%.2f" : "%.3g", v);
    return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
  }

  /** A series name as the legend shows it: at most 24 characters. */
  static String legend(String name) {
    return name.length() <= 24 ? name : name.substring(0, 23) + "…";
  }

  /** The colour of series {@code i}. */
  static String color(int i) {
    return COLORS.get(i % COLORS.size());
  }
}
