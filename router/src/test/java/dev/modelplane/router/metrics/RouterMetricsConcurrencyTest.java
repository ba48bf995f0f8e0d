package dev.modelplane.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
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
 * Writes and scrapes racing each other: every scrape must be a consistent picture. Each test is bounded in count and
 * time.
 */
class RouterMetricsConcurrencyTest {
  private static final String DURATION = "inference_objective_request_duration_seconds";
  private static final Pattern BUCKET = Pattern.compile(
      "(?m)^" + DURATION + "_bucket\\{[^}]*le=\"([^\"]+)\"[^}]*} (\\d+)$");
  private static final Pattern COUNT = Pattern.compile("(?m)^" + DURATION + "_count\\{[^}]*} (\\d+)$");

  private static RouterMetrics metrics(PoolRegistry pools) {
    return new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
  }

  @Test
  void histogramScrapesAreCumulativeAndInfEqualsCountWhileObserving() throws Exception {
    RouterMetrics metrics = metrics(new PoolRegistry());
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService writers = Executors.newFixedThreadPool(4);
    List<Future<?>> running = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      running.add(writers.submit(() -> {
        double[] values = {0.00005, 0.003, 0.07, 4, 500};
        for (long i = 0; !stop.get() && i < 50_000_000L; i++) {
          metrics.requestDuration.observe(values[(int) (i % values.length)], "m", "t");
        }
      }));
    }
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
      for (int scrape = 0; scrape < 2000 && System.nanoTime() < deadline; scrape++) {
        assertConsistentHistogram(metrics.scrape());
      }
    } finally {
      stop.set(true);
      writers.shutdown();
      assertThat(writers.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }
    for (Future<?> f : running) {
      f.get();
    }
  }

  private static void assertConsistentHistogram(String text) {
    Matcher b = BUCKET.matcher(text);
    long previous = 0;
    long inf = -1;
    List<String> buckets = new ArrayList<>();
    while (b.find()) {
      long value = Long.parseLong(b.group(2));
      buckets.add(b.group(1) + "=" + value);
      assertThat(value).as("buckets must be cumulative: %s", buckets).isGreaterThanOrEqualTo(previous);
      previous = value;
      if (b.group(1).equals("+Inf")) {
        inf = value;
      }
    }
    if (buckets.isEmpty()) {
      return; // no observation yet
    }
    Matcher c = COUNT.matcher(text);
    assertThat(c.find()).isTrue();
    assertThat(inf).as("+Inf bucket is the last one: %s", buckets).isEqualTo(previous);
    assertThat(Long.parseLong(c.group(1))).as("_count equals the +Inf bucket: %s", buckets).isEqualTo(inf);
  }

  @Test
  void gaugeSetIsNotLostAgainstConcurrentAdds() throws Exception {
    RouterMetrics metrics = metrics(new PoolRegistry());
    ExecutorService adder = Executors.newSingleThreadExecutor();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
    try {
      // A lost update needs the set to land inside one add's read-modify-write, a few percent of the rounds.
      for (int round = 0; round < 10_000 && System.nanoTime() < end; round++) {
        String model = "m" + round;
        Future<?> adds = adder.submit(() -> {
          for (int i = 0; i < 2000; i++) {
            metrics.runningRequests.add(1, model);
          }
        });
        while (metrics.runningRequests.get(model) < 100 && !adds.isDone()) {
          Thread.onSpinWait();
        }
        metrics.runningRequests.set(-1_000_000, model);
        adds.get(10, TimeUnit.SECONDS);
        // Whatever the interleaving, the set happened once: at most 2,000 adds can follow it.
        assertThat(metrics.runningRequests.get(model)).as("round %d", round).isLessThan(0);
      }
    } finally {
      adder.shutdownNow();
    }
  }

  @Test
  void concurrentScrapesEachSeeEveryPoolSeries() throws Exception {
    PoolRegistry pools = new PoolRegistry();
    int poolCount = 200;
    for (int i = 0; i < poolCount; i++) {
      pools.getOrCreate(new PoolKey("ns", "pool-" + i)).setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000)));
    }
    RouterMetrics metrics = metrics(pools);
    ExecutorService scrapers = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        done.add(scrapers.submit(() -> {
          for (int i = 0; i < 100; i++) {
            String text = metrics.scrape();
            for (String gauge : List.of("inference_pool_ready_pods", "inference_pool_average_kv_cache_utilization",
                "inference_pool_average_queue_size", "inference_pool_average_running_requests")) {
              assertThat(text.lines().filter(l -> l.startsWith(gauge + "{"))).as(gauge).hasSize(poolCount);
            }
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      scrapers.shutdownNow();
    }
  }
}
