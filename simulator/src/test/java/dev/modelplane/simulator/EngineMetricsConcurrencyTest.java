package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The engine thread writes while event loops scrape: every scrape must be a consistent picture (one LoRA info
 * series, cumulative histogram buckets whose +Inf equals the count). Bounded in count and time.
 */
class EngineMetricsConcurrencyTest {
  private static final Pattern TTFT_BUCKET = Pattern.compile(
      "(?m)^vllm:time_to_first_token_seconds_bucket\\{[^}]*le=\"([^\"]+)\"} (\\d+)$");
  private static final Pattern TTFT_COUNT = Pattern.compile("(?m)^vllm:time_to_first_token_seconds_count\\{[^}]*} (\\d+)$");

  @Test
  void scrapesStayConsistentWhileTheEngineWrites() throws Exception {
    EngineMetrics metrics = new EngineMetrics("m", 16, 1024, 2048, true);
    metrics.loraInfo.replace(0, "1", "", ""); // as the engine publishes at construction, before any scrape
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService threads = Executors.newFixedThreadPool(4);
    List<Future<?>> all = new ArrayList<>();
    all.add(threads.submit(() -> {
      double[] values = {0.002, 0.07, 3, 5000};
      for (long i = 0; !stop.get() && i < 50_000_000L; i++) {
        metrics.ttft.observe(values[(int) (i % values.length)], "m");
        metrics.generationTokens.add(1, "m");
        if (i % 64 == 0) {
          metrics.loraInfo.replace(i, "1", "a" + (i % 3), i % 2 == 0 ? "" : "b");
        }
      }
    }));
    for (int t = 0; t < 3; t++) {
      all.add(threads.submit(() -> {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        for (int i = 0; i < 2000 && System.nanoTime() < deadline; i++) {
          assertConsistent(metrics.scrape());
        }
        return null;
      }));
    }
    try {
      for (Future<?> scraper : all.subList(1, all.size())) {
        scraper.get(30, TimeUnit.SECONDS);
      }
    } finally {
      stop.set(true);
      threads.shutdown();
      assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    all.get(0).get();
  }

  private static void assertConsistent(String text) {
    assertThat(text.lines().filter(l -> l.startsWith("vllm:lora_requests_info{"))).hasSize(1);
    Matcher b = TTFT_BUCKET.matcher(text);
    long previous = 0;
    List<String> buckets = new ArrayList<>();
    while (b.find()) {
      long value = Long.parseLong(b.group(2));
      buckets.add(b.group(1) + "=" + value);
      assertThat(value).as("cumulative: %s", buckets).isGreaterThanOrEqualTo(previous);
      previous = value;
    }
    assertThat(buckets).last().asString().startsWith("+Inf=");
    Matcher c = TTFT_COUNT.matcher(text);
    assertThat(c.find()).isTrue();
    assertThat(Long.parseLong(c.group(1))).as("_count equals +Inf: %s", buckets).isEqualTo(previous);
  }
}
