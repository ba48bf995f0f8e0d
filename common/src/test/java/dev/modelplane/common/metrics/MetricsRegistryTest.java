package dev.modelplane.common.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MetricsRegistryTest {
  @Test
  void namesStayAsGivenAndTheTextFormatHasNoCreatedSeries() {
    MetricsRegistry r = new MetricsRegistry();
    r.counter("vllm:prompt_tokens_total", "Prompt tokens.", "model_name").add(3, "m");
    r.histogram("latency_seconds", "Latency.", new double[] {0.1, 1}).observe(0.5);
    r.gauge("queue", "Queue.", "pool").set(2, "a");
    String text = r.scrape();
    assertThat(text).contains("# TYPE vllm:prompt_tokens_total counter\n")
        .contains("vllm:prompt_tokens_total{model_name=\"m\"} 3.0\n")
        .contains("latency_seconds_bucket{le=\"0.1\"} 0\n", "latency_seconds_bucket{le=\"1.0\"} 1\n",
            "latency_seconds_bucket{le=\"+Inf\"} 1\n", "latency_seconds_count 1\n")
        .contains("queue{pool=\"a\"} 2.0\n")
        .doesNotContain("_created", "_total_total");
  }

  @Test
  void anInfoGaugeHasOneSeriesAndAScrapeTimeGaugeKeepsTheLastValueOfALabelSet() {
    MetricsRegistry r = new MetricsRegistry();
    MetricsRegistry.InfoGauge info = r.infoGauge("lora_info", "LoRA.", "running");
    assertThat(r.scrape()).doesNotContain("lora_info{");
    info.replace(1, "a");
    info.replace(2, "b");
    r.gaugeAtScrape("pool_size", "Pool size.", out -> {
      out.set(1, "p");
      out.set(5, "p");
    }, "name");
    String text = r.scrape();
    assertThat(text.lines().filter(l -> l.startsWith("lora_info{"))).containsExactly("lora_info{running=\"b\"} 2.0");
    assertThat(text).contains("pool_size{name=\"p\"} 5.0\n");
  }
}
