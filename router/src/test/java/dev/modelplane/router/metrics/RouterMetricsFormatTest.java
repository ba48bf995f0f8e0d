package dev.modelplane.router.metrics;

import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.FlowController;
import dev.modelplane.router.flowcontrol.FlowOutcome;
import dev.modelplane.router.flowcontrol.UsageLimitPolicy;
import dev.modelplane.router.plugin.Plugin;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.prefix.precise.PoolIndex;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The router's /metrics text, with every family holding series (label values that need escaping included), must
 * parse with Prometheus's own strict parser and pass its linter without findings: {@code promtool check metrics},
 * built by hack/promtool/build.sh (cached under ~/.cache/modelplane/promtool). GIE's names are a contract.
 */
class RouterMetricsFormatTest {
  @TempDir
  Path dir;

  @Test
  void metricsPassPromtoolCheckMetrics() throws Exception {
    String promtool = promtool();
    String text = populated();
    assertThat(text).contains("inference_objective_request_total{model_name=\"we\\\"ird\\\\na\\nme\"")
        .contains("modelplane_router_prefix_index_mode{mode=\"precise\",pool=\"ns/pool-a\"} 1.0")
        .contains("modelplane_router_prefix_index_mode{mode=\"approximate\",pool=\"ns/pool-b\"} 1.0")
        .contains("# TYPE inference_objective_request_total counter")
        .doesNotContain("_total_total").doesNotContain("_created");
    Path file = Files.writeString(dir.resolve("metrics.txt"), text, StandardCharsets.UTF_8);
    Process p = new ProcessBuilder(promtool, "check", "metrics").redirectInput(file.toFile())
        .redirectErrorStream(true).start();
    String report = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as("promtool check metrics:\n" + report + "\non:\n" + text).isZero();
    assertThat(report.lines().filter(l -> !l.isBlank())).as(report).isEmpty();
  }

  /** A scrape after one observation of every metric. */
  private static String populated() {
    PoolRegistry pools = new PoolRegistry();
    pools.getOrCreate(new PoolKey("ns", "pool-a"))
        .setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000), Endpoint.ofStatic("10.0.0.2", 8000)));
    pools.getOrCreate(new PoolKey("ns", "pool-b"));
    RouterMetrics m = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    m.prefixIndexSize(() -> 42);
    Plugin filter = new Plugin() {
      @Override
      public String type() {
        return "lora-affinity-filter";
      }

      @Override
      public String name() {
        return "lora";
      }
    };
    m.requestTotal.inc("m", "t", "0");
    m.requestTotal.inc("we\"ird\\na\nme", "t", "1");
    m.requestErrorTotal.inc("m", "t", "BadRequest");
    m.requestDuration.observe(0.0123, "m", "t");
    m.requestDuration.observe(1000, "m", "t");
    m.requestSizes.observe(1000, "m", "t");
    m.responseSizes.observe(20_000_000, "m", "t");
    m.runningRequests.add(1, "m");
    m.cycle(1_500_000, true);
    m.schedulerAttempts.inc("success", "t", "pod-a", "ns", "8000");
    m.pluginDuration("Filter", filter, 50_000);
    m.filtered(filter, 3, 1);
    m.prefixMatched(10, 40);
    m.disaggDecisions.inc("m", "prefill-decode");
    m.kvEventBatch("ns/pool-a");
    m.kvEvent("ns/pool-a", "BlockStored");
    m.kvEventsSkipped("ns/pool-a", "unknown_parent", 2);
    m.kvEventBatchesLost("ns/pool-a", 3);
    m.kvEventMalformed("");
    m.kvBlockHashes("ns/pool-a", true, 4);
    m.kvBlockHashes("ns/pool-a", false, 0);
    m.precisePrefixFallback("ns/pool-b", "no_events");
    m.precisePrefixIndexes(() -> List.of(new PoolIndex.Status("ns/pool-a", true, 3, 5, 1),
        new PoolIndex.Status("ns/pool-b", false, 0, 0, 0)));
    FlowController.Observer observer = m.flowObserver("ns/pool-a");
    observer.outcome("f", 0, FlowOutcome.DISPATCHED, 3_000_000);
    observer.saturation(0.25);
    m.gatewayRequests.inc("200", "m");
    m.gatewayDuration.observe(0.5, "200");
    m.gatewayTtfb.observe(0.00015);
    m.gatewayRetries.inc("connect");
    m.extProcStreams.inc("completed");
    ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor();
    try {
      // Saturated (1.0): the requests stay queued and show in the flow-control queue gauges.
      FlowController fc = new FlowController(FlowControlConfig.DEFAULT, () -> 1.0, UsageLimitPolicy.NONE,
          System::nanoTime, executor, null, 2_000_000L);
      fc.enqueue("f", 0, 100, 0);
      m.flowController("ns/pool-a", fc);
      String text = m.scrape();
      fc.close();
      return text;
    } finally {
      executor.shutdownNow();
    }
  }

  private static String promtool() throws Exception {
    Path root = repoRoot();
    Path script = root.resolve("hack/promtool/build.sh");
    String why;
    if (!Files.isExecutable(script)) {
      why = "hack/promtool/build.sh not found under " + root;
    } else {
      Path log = Files.createTempFile("modelplane-promtool", ".log");
      Process p = new ProcessBuilder(script.toString()).redirectError(log.toFile()).start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(20, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        why = "hack/promtool/build.sh timed out";
      } else if (p.exitValue() != 0) {
        why = "hack/promtool/build.sh failed (exit " + p.exitValue() + "): " + Files.readString(log);
      } else {
        Files.deleteIfExists(log);
        List<String> lines = out.lines().filter(l -> !l.isBlank()).toList();
        return lines.get(lines.size() - 1);
      }
    }
    // promtool builds from the Go module proxy like the control plane does: no machine of ours lacks it, so a
    // missing promtool is a failure, never a skipped check.
    fail(why);
    return null;
  }

  private static Path repoRoot() {
    for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
      if (Files.isExecutable(d.resolve("hack/promtool/build.sh")) && Files.exists(d.resolve("pom.xml"))) {
        return d;
      }
    }
    return Path.of("").toAbsolutePath();
  }
}
