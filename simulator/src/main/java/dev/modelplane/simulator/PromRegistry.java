package dev.modelplane.simulator;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small Prometheus registry writing text exposition format 0.0.4: enough for vLLM's gauges, counters and
 * histograms without a metrics library. Every method is synchronized: the engine thread writes, scrapes read.
 */
final class PromRegistry {
  private final List<Family> families = new ArrayList<>();

  /** One metric family: a name, a type, label names, and one child per label-value list. */
  abstract static sealed class Family permits Gauge, Counter, Histogram {
    final String name;
    final String help;
    final String[] labels;

    Family(String name, String help, String[] labels) {
      this.name = name;
      this.help = help;
      this.labels = labels;
    }

    abstract String type();

    abstract void write(StringBuilder sb);

    String labelText(List<String> values, String extraName, String extraValue) {
      if (labels.length == 0 && extraName == null) {
        return "";
      }
      StringBuilder sb = new StringBuilder("{");
      for (int i = 0; i < labels.length; i++) {
        if (i > 0) {
          sb.append(',');
        }
        sb.append(labels[i]).append("=\"").append(escape(values.get(i))).append('"');
      }
      if (extraName != null) {
        if (labels.length > 0) {
          sb.append(',');
        }
        sb.append(extraName).append("=\"").append(extraValue).append('"');
      }
      return sb.append('}').toString();
    }
  }

  /** A gauge; {@link #replace} makes it hold exactly one child (info-style gauges whose labels change). */
  static final class Gauge extends Family {
    private final Map<List<String>, double[]> children = new LinkedHashMap<>();

    Gauge(String name, String help, String... labels) {
      super(name, help, labels);
    }

    String type() {
      return "gauge";
    }

    void set(double v, String... values) {
      synchronized (this) {
        children.computeIfAbsent(List.of(values), k -> new double[1])[0] = v;
      }
    }

    void replace(double v, String... values) {
      synchronized (this) {
        children.clear();
        children.put(List.of(values), new double[] {v});
      }
    }

    synchronized void write(StringBuilder sb) {
      children.forEach((k, v) -> sb.append(name).append(labelText(k, null, null)).append(' ')
          .append(num(v[0])).append('\n'));
    }
  }

  /** A counter; its samples carry the {@code _total} suffix, as prometheus_client writes them. */
  static final class Counter extends Family {
    private final Map<List<String>, double[]> children = new LinkedHashMap<>();

    Counter(String name, String help, String... labels) {
      super(name, help, labels);
    }

    String type() {
      return "counter";
    }

    void inc(double by, String... values) {
      synchronized (this) {
        children.computeIfAbsent(List.of(values), k -> new double[1])[0] += by;
      }
    }

    /** Makes a child exist at 0 so the series is visible before the first event. */
    void touch(String... values) {
      inc(0, values);
    }

    synchronized double get(String... values) {
      double[] v = children.get(List.of(values));
      return v == null ? 0 : v[0];
    }

    synchronized void write(StringBuilder sb) {
      children.forEach((k, v) -> sb.append(name).append("_total").append(labelText(k, null, null)).append(' ')
          .append(num(v[0])).append('\n'));
    }
  }

  /** A histogram with fixed upper bounds. */
  static final class Histogram extends Family {
    private final double[] bounds;
    private final Map<List<String>, double[]> children = new LinkedHashMap<>();

    Histogram(String name, String help, double[] bounds, String... labels) {
      super(name, help, labels);
      this.bounds = bounds.clone();
    }

    String type() {
      return "histogram";
    }

    private String[] lastValues;
    private double[] lastChild;

    /** Layout of a child: [count per bound..., count(+Inf), sum]. */
    void observe(double v, String... values) {
      synchronized (this) {
        double[] c;
        if (lastValues != null && java.util.Arrays.equals(lastValues, values)) {
          c = lastChild;
        } else {
          c = children.computeIfAbsent(List.of(values), k -> new double[bounds.length + 2]);
          lastValues = values.clone();
          lastChild = c;
        }
        int i = Arrays.binarySearch(bounds, v);
        c[i >= 0 ? i : -i - 1]++;
        c[bounds.length + 1] += v;
      }
    }

    void touch(String... values) {
      synchronized (this) {
        children.computeIfAbsent(List.of(values), k -> new double[bounds.length + 2]);
      }
    }

    synchronized long count(String... values) {
      double[] c = children.get(List.of(values));
      if (c == null) {
        return 0;
      }
      long n = 0;
      for (int i = 0; i <= bounds.length; i++) {
        n += (long) c[i];
      }
      return n;
    }

    synchronized void write(StringBuilder sb) {
      children.forEach((k, c) -> {
        long cumulative = 0;
        for (int i = 0; i < bounds.length; i++) {
          cumulative += (long) c[i];
          sb.append(name).append("_bucket").append(labelText(k, "le", num(bounds[i]))).append(' ')
              .append(cumulative).append('\n');
        }
        cumulative += (long) c[bounds.length];
        sb.append(name).append("_bucket").append(labelText(k, "le", "+Inf")).append(' ').append(cumulative)
            .append('\n');
        sb.append(name).append("_sum").append(labelText(k, null, null)).append(' ').append(num(c[bounds.length + 1]))
            .append('\n');
        sb.append(name).append("_count").append(labelText(k, null, null)).append(' ').append(cumulative).append('\n');
      });
    }
  }

  <F extends Family> F register(F family) {
    synchronized (families) {
      families.add(family);
    }
    return family;
  }

  /** The exposition text of every family. */
  String scrape() {
    StringBuilder sb = new StringBuilder(16 * 1024);
    synchronized (families) {
      for (Family f : families) {
        String sampleName = f instanceof Counter ? f.name + "_total" : f.name;
        sb.append("# HELP ").append(sampleName).append(' ').append(f.help.replace("\\", "\\\\").replace("\n", "\\n"))
            .append('\n');
        sb.append("# TYPE ").append(sampleName).append(' ').append(f.type()).append('\n');
        f.write(sb);
      }
    }
    return sb.toString();
  }

  static String escape(String v) {
    return v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
  }

  static String num(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return (long) v + ".0";
    }
    return Double.toString(v);
  }
}
