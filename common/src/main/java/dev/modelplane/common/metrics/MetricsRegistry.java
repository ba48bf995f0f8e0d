package dev.modelplane.common.metrics;

import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * A process's metrics, held by the Prometheus Java client with the conventions every modelplane component shares:
 * classic histograms with explicit buckets, no exemplars, and the text format 0.0.4 without {@code _created} series —
 * what Prometheus scrapes by default and what the router's own scraper reads. Metric names are kept exactly as
 * given (the client writes a counter's {@code _total} back on its samples).
 */
public final class MetricsRegistry {
  /** The exposition content type. */
  public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";
  private static final PrometheusTextFormatWriter TEXT = PrometheusTextFormatWriter.create();

  private final PrometheusRegistry registry = new PrometheusRegistry();

  public CounterFamily counter(String name, String help, String... labels) {
    return new CounterFamily(Counter.builder().name(name).help(help).labelNames(labels).withoutExemplars()
        .register(registry));
  }

  public GaugeFamily gauge(String name, String help, String... labels) {
    return new GaugeFamily(Gauge.builder().name(name).help(help).labelNames(labels).withoutExemplars()
        .register(registry));
  }

  public HistogramFamily histogram(String name, String help, double[] bounds, String... labels) {
    return new HistogramFamily(Histogram.builder().name(name).help(help).labelNames(labels).classicOnly()
        .classicUpperBounds(bounds).withoutExemplars().register(registry));
  }

  /**
   * A gauge whose series {@code fill} computes at each scrape into a list private to that scrape, so concurrent
   * scrapes never see each other's half-built sets. A label set given twice keeps the last value.
   */
  public void gaugeAtScrape(String name, String help, Consumer<ScrapedValues> fill, String... labels) {
    GaugeWithCallback.builder().name(name).help(help).labelNames(labels).callback(callback -> {
      Map<List<String>, Double> values = new LinkedHashMap<>();
      fill.accept((value, labelValues) -> values.put(Arrays.asList(labelValues), value));
      values.forEach((labelValues, value) -> callback.call(value, labelValues.toArray(String[]::new)));
    }).register(registry);
  }

  /**
   * A gauge with exactly one series whose labels change as a whole (vLLM's {@code *_info} gauges): the series is one
   * immutable value swapped atomically, so a scrape sees either the old or the new one, never none or both.
   */
  public InfoGauge infoGauge(String name, String help, String... labels) {
    InfoGauge gauge = new InfoGauge();
    GaugeWithCallback.builder().name(name).help(help).labelNames(labels).callback(callback -> {
      InfoGauge.Series s = gauge.current.get();
      if (s != null) {
        callback.call(s.value(), s.labelValues());
      }
    }).register(registry);
    return gauge;
  }

  /** Every metric in the text format 0.0.4. */
  public String scrape() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(16 * 1024);
    try {
      TEXT.write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
    }
    return out.toString(StandardCharsets.UTF_8);
  }

  /** The client library's registry, for bridges that register their own collectors. */
  public PrometheusRegistry prometheus() {
    return registry;
  }

  /** Receives one scrape's values of a gauge computed at scrape time. */
  @FunctionalInterface
  public interface ScrapedValues {
    void set(double value, String... labelValues);
  }

  /** A counter addressed by its label values in each call. */
  public record CounterFamily(Counter metric) {
    public void inc(String... labelValues) {
      metric.labelValues(labelValues).inc();
    }

    /** Adds {@code amount} (not negative). */
    public void add(double amount, String... labelValues) {
      metric.labelValues(labelValues).inc(amount);
    }

    /** Makes the series exist at 0, so it is visible before the first event. */
    public void touch(String... labelValues) {
      metric.initLabelValues(labelValues);
    }
  }

  /** A gauge addressed by its label values in each call; {@code set} and {@code add} are atomic. */
  public record GaugeFamily(Gauge metric) {
    public void set(double value, String... labelValues) {
      metric.labelValues(labelValues).set(value);
    }

    public void add(double delta, String... labelValues) {
      metric.labelValues(labelValues).inc(delta);
    }

    /** The current value (a series read before its first update is created at 0). */
    public double get(String... labelValues) {
      return metric.labelValues(labelValues).get();
    }
  }

  /** A histogram addressed by its label values in each call. */
  public record HistogramFamily(Histogram metric) {
    public void observe(double value, String... labelValues) {
      metric.labelValues(labelValues).observe(value);
    }

    /** The series for these label values, to keep when it is observed often. */
    public DistributionDataPoint child(String... labelValues) {
      return metric.labelValues(labelValues);
    }

    /** Makes the series exist with empty buckets, so it is visible before the first observation. */
    public void touch(String... labelValues) {
      metric.initLabelValues(labelValues);
    }
  }

  /** See {@link #infoGauge}. */
  public static final class InfoGauge {
    private record Series(double value, String[] labelValues) {
    }

    private final AtomicReference<Series> current = new AtomicReference<>();

    private InfoGauge() {
    }

    /** Replaces the series. */
    public void replace(double value, String... labelValues) {
      current.set(new Series(value, labelValues.clone()));
    }
  }
}
