package dev.modelplane.router.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * A small Prometheus registry with exact metric names (GIE's {@code inference_*} names are a contract) and lock-free
 * updates: counters and histogram buckets are adders, children are looked up in concurrent maps.
 */
public final class PrometheusRegistry {
  private final List<Family> families = new CopyOnWriteArrayList<>();

  /** Latency buckets in seconds, as GIE's scheduler histograms use. */
  public static final double[] LATENCY_SECONDS = {0.0001, 0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1,
      0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300};
  public static final double[] BYTES = {64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216};
  public static final double[] RATIO = {0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0};

  private abstract static class Family {
    final String name;
    final String help;
    final String type;
    final String[] labelNames;

    Family(String name, String help, String type, String[] labelNames) {
      this.name = name;
      this.help = help;
      this.type = type;
      this.labelNames = labelNames;
    }

    abstract void write(StringBuilder sb);

    void header(StringBuilder sb) {
      sb.append("# HELP ").append(name).append(' ').append(help).append('\n');
      sb.append("# TYPE ").append(name).append(' ').append(type).append('\n');
    }

    void labels(StringBuilder sb, List<String> values, String extraName, String extraValue) {
      if (labelNames.length == 0 && extraName == null) {
        return;
      }
      sb.append('{');
      boolean first = true;
      for (int i = 0; i < labelNames.length; i++) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        sb.append(labelNames[i]).append("=\"");
        escape(sb, values.get(i));
        sb.append('"');
      }
      if (extraName != null) {
        if (!first) {
          sb.append(',');
        }
        sb.append(extraName).append("=\"").append(extraValue).append('"');
      }
      sb.append('}');
    }
  }

  /** A monotonically increasing counter. */
  public static final class Counter extends Family {
    private final Map<List<String>, DoubleAdder> children = new ConcurrentHashMap<>();

    Counter(String name, String help, String[] labels) {
      super(name, help, "counter", labels);
    }

    public void inc(String... labelValues) {
      add(1, labelValues);
    }

    public void add(double amount, String... labelValues) {
      children.computeIfAbsent(List.of(labelValues), k -> new DoubleAdder()).add(amount);
    }

    public double get(String... labelValues) {
      DoubleAdder a = children.get(List.of(labelValues));
      return a == null ? 0 : a.sum();
    }

    @Override
    void write(StringBuilder sb) {
      header(sb);
      children.forEach((labels, value) -> {
        sb.append(name);
        labels(sb, labels, null, null);
        sb.append(' ').append(format(value.sum())).append('\n');
      });
    }
  }

  /** A gauge set directly or filled by a callback at scrape time. */
  public static final class Gauge extends Family {
    private final Map<List<String>, double[]> children = new ConcurrentHashMap<>();
    private final Consumer<Gauge> onScrape;

    Gauge(String name, String help, String[] labels, Consumer<Gauge> onScrape) {
      super(name, help, "gauge", labels);
      this.onScrape = onScrape;
    }

    public void set(double value, String... labelValues) {
      children.computeIfAbsent(List.of(labelValues), k -> new double[1])[0] = value;
    }

    public void add(double delta, String... labelValues) {
      double[] cell = children.computeIfAbsent(List.of(labelValues), k -> new double[1]);
      synchronized (cell) {
        cell[0] += delta;
      }
    }

    public double get(String... labelValues) {
      double[] cell = children.get(List.of(labelValues));
      return cell == null ? 0 : cell[0];
    }

    public void clear() {
      children.clear();
    }

    @Override
    void write(StringBuilder sb) {
      if (onScrape != null) {
        children.clear();
        onScrape.accept(this);
      }
      header(sb);
      children.forEach((labels, value) -> {
        sb.append(name);
        labels(sb, labels, null, null);
        sb.append(' ').append(format(value[0])).append('\n');
      });
    }
  }

  /** A histogram with fixed upper bounds. */
  public static final class Histogram extends Family {
    private final double[] bounds;
    private final Map<List<String>, Child> children = new ConcurrentHashMap<>();

    /** One labelled series. */
    public final class Child {
      private final LongAdder[] buckets = new LongAdder[bounds.length];
      private final DoubleAdder sum = new DoubleAdder();
      private final LongAdder count = new LongAdder();

      Child() {
        for (int i = 0; i < buckets.length; i++) {
          buckets[i] = new LongAdder();
        }
      }

      public void observe(double value) {
        int i = Arrays.binarySearch(bounds, value);
        if (i < 0) {
          i = -i - 1;
        }
        if (i < buckets.length) {
          buckets[i].increment();
        }
        sum.add(value);
        count.increment();
      }

      public long count() {
        return count.sum();
      }
    }

    Histogram(String name, String help, double[] bounds, String[] labels) {
      super(name, help, "histogram", labels);
      this.bounds = bounds.clone();
    }

    public Child child(String... labelValues) {
      return children.computeIfAbsent(List.of(labelValues), k -> new Child());
    }

    public void observe(double value, String... labelValues) {
      child(labelValues).observe(value);
    }

    @Override
    void write(StringBuilder sb) {
      header(sb);
      children.forEach((labels, c) -> {
        long cumulative = 0;
        for (int i = 0; i < bounds.length; i++) {
          cumulative += c.buckets[i].sum();
          sb.append(name).append("_bucket");
          labels(sb, labels, "le", format(bounds[i]));
          sb.append(' ').append(cumulative).append('\n');
        }
        sb.append(name).append("_bucket");
        labels(sb, labels, "le", "+Inf");
        sb.append(' ').append(c.count.sum()).append('\n');
        sb.append(name).append("_sum");
        labels(sb, labels, null, null);
        sb.append(' ').append(format(c.sum.sum())).append('\n');
        sb.append(name).append("_count");
        labels(sb, labels, null, null);
        sb.append(' ').append(c.count.sum()).append('\n');
      });
    }
  }

  public Counter counter(String name, String help, String... labels) {
    return register(new Counter(name, help, labels));
  }

  public Gauge gauge(String name, String help, String... labels) {
    return register(new Gauge(name, help, labels, null));
  }

  /** A gauge whose values {@code onScrape} sets at each scrape (cleared first). */
  public Gauge gauge(String name, String help, Consumer<Gauge> onScrape, String... labels) {
    return register(new Gauge(name, help, labels, onScrape));
  }

  public Histogram histogram(String name, String help, double[] bounds, String... labels) {
    return register(new Histogram(name, help, bounds, labels));
  }

  private <T extends Family> T register(T family) {
    for (Family f : families) {
      if (f.name.equals(family.name)) {
        throw new IllegalArgumentException("metric " + family.name + " registered twice");
      }
    }
    families.add(family);
    return family;
  }

  /** The text exposition (format 0.0.4). */
  public String scrape() {
    StringBuilder sb = new StringBuilder(4096);
    for (Family f : new ArrayList<>(families)) {
      f.write(sb);
    }
    return sb.toString();
  }

  static String format(double v) {
    if (v == Math.rint(v) && !Double.isInfinite(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    return Double.toString(v);
  }

  static void escape(StringBuilder sb, String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      switch (c) {
        case '\\' -> sb.append("\\\\");
        case '"' -> sb.append("\\\"");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c);
      }
    }
  }
}
