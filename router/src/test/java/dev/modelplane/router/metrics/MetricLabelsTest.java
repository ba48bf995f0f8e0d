package dev.modelplane.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.router.request.RequestInput;
import dev.modelplane.router.request.RoutingDecision;
import dev.modelplane.router.scheduling.ResponseOutcome;
import dev.modelplane.router.testing.FakeModelServer;
import io.vertx.core.Vertx;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Client-chosen model names and fairness ids cannot grow the label sets of the router's metrics. */
class MetricLabelsTest {
  private static final Pattern LABEL = Pattern.compile("(?:^|[{,])(model_name|target_model_name|fairness_id)"
      + "=\"((?:[^\"\\\\]|\\\\.)*)\"");

  private static Map<String, Set<String>> labelValues(String exposition) {
    Map<String, Set<String>> out = new HashMap<>();
    for (String line : exposition.lines().toList()) {
      if (line.startsWith("#")) {
        continue;
      }
      Matcher m = LABEL.matcher(line);
      while (m.find()) {
        out.computeIfAbsent(m.group(1), k -> new TreeSet<>()).add(m.group(2));
      }
    }
    return out;
  }

  @Test
  void tenThousandModelNamesExposeABoundedNumberOfSeries() throws Exception {
    Vertx vertx = Vertx.vertx();
    FakeModelServer server = new FakeModelServer(vertx, "a").start();
    try (Router router = new Router(new RouterOptions("127.0.0.1", null, -1, -1, -1, server.hostPort(), List.of(),
        null, null, MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start()) {
      EndpointPool pool = router.pools().get(PoolKey.STATIC);
      pool.putObjective("objective-model", 0);
      await().atMost(Duration.ofSeconds(10)).until(() -> pool.endpoints().get(0).metrics().updated());
      RequestDirector director = router.director();
      for (int i = 0; i < 10_000; i++) {
        route(director, pool, "model-" + i, "tenant-" + i, 404);
      }
      route(director, pool, "objective-model", "tenant-x", 404); // named by an InferenceObjective
      route(director, pool, "served-model", "tenant-y", 200); // a model server answered it: real
      route(director, pool, "served-model", "tenant-y", 200);

      String text = router.metrics().scrape();
      int lines = (int) text.lines().filter(l -> !l.startsWith("#")).count();
      Map<String, Set<String>> values = labelValues(text);
      assertThat(values.get("model_name")).hasSizeLessThanOrEqualTo(MetricLabels.MAX_UNCONFIRMED + 4)
          .contains(MetricLabels.OTHER, "objective-model", "served-model", "model-0")
          .doesNotContain("model-9999");
      assertThat(values.get("target_model_name")).hasSizeLessThanOrEqualTo(MetricLabels.MAX_UNCONFIRMED + 4);
      // a few hundred lines per label value at most, nowhere near one set per request
      assertThat(lines).isLessThan(10_000);
    } finally {
      server.close();
      vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void tenThousandFairnessIdsExposeAtMostOneSeriesPerBucket() {
    RouterMetrics metrics = new RouterMetrics(new dev.modelplane.router.pool.PoolRegistry(), System::nanoTime,
        2_000_000_000L);
    double[] saturation = {2.0};
    dev.modelplane.router.flowcontrol.FlowController fc = new dev.modelplane.router.flowcontrol.FlowController(
        dev.modelplane.router.flowcontrol.FlowControlConfig.DEFAULT, () -> saturation[0],
        dev.modelplane.router.flowcontrol.UsageLimitPolicy.NONE, System::nanoTime, null,
        metrics.flowObserver("pool"), 0);
    metrics.flowController("pool", fc);
    for (int i = 0; i < 10_000; i++) {
      fc.enqueue("tenant-" + i, 0, 10, 0);
    }
    fc.enqueue(RequestDirector.DEFAULT_FAIRNESS_ID, 0, 10, 0);
    String queued = metrics.scrape();
    Set<String> ids = labelValues(queued).get("fairness_id");
    assertThat(ids).hasSize(MetricLabels.FAIRNESS_BUCKETS + 1)
        .allMatch(v -> v.equals("default-flow") || v.matches("bucket-[0-9]+"));
    // the buckets add up: nothing is lost by hashing
    double total = queued.lines().filter(l -> l.startsWith("inference_extension_flow_control_queue_size{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    assertThat(total).isEqualTo(10_001.0);
    saturation[0] = 0;
    assertThat(fc.drain()).isEqualTo(10_001);
    assertThat(labelValues(metrics.scrape()).get("fairness_id")).hasSize(MetricLabels.FAIRNESS_BUCKETS + 1);
  }

  private static void route(RequestDirector director, EndpointPool pool, String model, String fairness, int status)
      throws Exception {
    Map<String, String> headers = new HashMap<>();
    headers.put(RequestDirector.FAIRNESS_ID, fairness);
    byte[] body = ("{\"model\":\"" + model + "\",\"prompt\":\"hi\"}").getBytes(StandardCharsets.UTF_8);
    RoutingDecision d = director.route(new RequestInput(pool, "/v1/completions", headers, body, null,
        System.nanoTime())).decision().get(10, TimeUnit.SECONDS);
    director.started(d);
    director.responseReceived(d, status, d.destination());
    director.finished(d);
    director.complete(d, ResponseOutcome.of(status, true, 10, null), System.nanoTime());
  }

  @Test
  void modelNamesAreAdmittedWhenKnownServedOrAmongTheFirstFew() {
    MetricLabels labels = new MetricLabels();
    labels.knownModels(n -> n.equals("pool-model"));
    for (int i = 0; i < MetricLabels.MAX_UNCONFIRMED; i++) {
      assertThat(labels.model("early-" + i)).isEqualTo("early-" + i);
    }
    assertThat(labels.model("late")).isEqualTo(MetricLabels.OTHER);
    assertThat(labels.model("early-0")).as("admitted names stay").isEqualTo("early-0");
    assertThat(labels.model("pool-model")).isEqualTo("pool-model");
    assertThat(labels.model("")).isEmpty();
    labels.served("late");
    assertThat(labels.model("late")).isEqualTo("late");
    for (int i = 0; i < MetricLabels.MAX_SERVED + 10; i++) {
      labels.served("served-" + i);
    }
    assertThat(labels.model("served-" + (MetricLabels.MAX_SERVED + 5))).isEqualTo(MetricLabels.OTHER);
  }

  @Test
  void aModelNameOverTheLengthLimitIsNeverItsOwnLabelEvenWhenServedOrKnown() {
    MetricLabels labels = new MetricLabels();
    String longest = "m".repeat(MetricLabels.MAX_NAME_LENGTH);
    String tooLong = "m".repeat(MetricLabels.MAX_NAME_LENGTH + 1);
    labels.knownModels(n -> n.startsWith("m"));
    assertThat(labels.model(tooLong)).isEqualTo(MetricLabels.OTHER);
    labels.knownModels(n -> false);
    assertThat(labels.model(tooLong)).as("unconfirmed slots are free, yet").isEqualTo(MetricLabels.OTHER);
    labels.served(tooLong);
    assertThat(labels.model(tooLong)).isEqualTo(MetricLabels.OTHER);
    assertThat(labels.model(longest)).isEqualTo(longest);
  }

  @Test
  void fairnessIdsFallIntoStableBuckets() {
    Set<String> buckets = new TreeSet<>();
    for (int i = 0; i < 10_000; i++) {
      buckets.add(MetricLabels.fairness("tenant-" + i));
    }
    assertThat(buckets).hasSize(MetricLabels.FAIRNESS_BUCKETS);
    assertThat(MetricLabels.fairness("tenant-1")).isEqualTo(MetricLabels.fairness("tenant-1"));
    assertThat(MetricLabels.fairness(null)).isEqualTo("default-flow");
    assertThat(MetricLabels.fairness("default-flow")).isEqualTo("default-flow");
  }
}
