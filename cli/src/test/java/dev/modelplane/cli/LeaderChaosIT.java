package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.scheduling.PriorityClassInstaller;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Two replicas of {@code modelplane operator} (the shaded jar, each its own JVM, as the service account of
 * {@code deploy/operator/rbac.yaml}) roll out a {@link ChaosFleet} of 200 services while the leader is killed with
 * SIGKILL twenty times, each killed replica started again under its name (a container restart in the same pod). The
 * fleet converges to what {@code modelplane render} says, with no duplicates or orphans (two leaders writing at once
 * would leave both); the longest time without a leader is measured from the replicas' leader gauges; the operator's
 * request rate (the apiserver's priority-and-fairness count for service accounts, which only the operator uses here)
 * falls back to the two idle replicas' baseline.
 */
@WithControlPlane // for its rule on missing binaries; the test runs on a control plane of its own
class LeaderChaosIT {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderChaosIT.class);
  private static final int KILLS = 20;
  private static final int BATCHES = 10;
  private static final List<String> TIMING = List.of("--lease-duration=4s", "--renew-deadline=3s",
      "--retry-period=1s");
  private static final Duration CONVERGENCE_TIMEOUT = Duration.ofSeconds(300);
  private static final Duration IDLE_WINDOW = Duration.ofSeconds(10);
  private static final String APF_SERVICE_ACCOUNTS = "apiserver_flowcontrol_dispatched_requests_total{"
      + "flow_schema=\"service-accounts\"";

  private static ControlPlane cp;
  private final List<Replica> replicas = new ArrayList<>();
  private final AtomicBoolean stopping = new AtomicBoolean();

  @TempDir
  Path dir;

  /** One operator replica: a name kept across restarts, its current process and log. */
  private final class Replica {
    final String identity;
    final int port;
    volatile Process process;
    int starts;
    final AtomicInteger unplannedExits = new AtomicInteger();
    volatile boolean killedByTest;

    Replica(String identity) throws IOException {
      this.identity = identity;
      this.port = FreePorts.pick();
    }

    void start(Path kubeconfig, String ns) throws IOException {
      List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
              .toString(), "-Xmx512m", "-jar", OperatorFixtures.jar().toString(), "operator",
          "--kubeconfig=" + kubeconfig, "--lease-namespace=" + ns, "--bind-address=127.0.0.1",
          "--http-port=" + port, "--model-cache=none"));
      command.addAll(TIMING);
      starts++;
      Path log = dir.resolve(identity + "-" + starts + ".log");
      ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
      builder.environment().put("POD_NAME", identity);
      killedByTest = false;
      process = builder.start();
    }

    boolean leading() {
      try {
        Process p = process;
        return p != null && p.isAlive()
            && OperatorFixtures.gauge(OperatorFixtures.get(port, "/metrics").body(), "modelplane_operator_leader")
                == 1.0;
      } catch (IOException | RuntimeException e) {
        return false;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return false;
      }
    }

    double reconciles() {
      try {
        return sum(OperatorFixtures.get(port, "/metrics").body(), "operator_sdk_reconciliations_started_total");
      } catch (IOException | RuntimeException e) {
        return 0;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return 0;
      }
    }
  }

  /**
   * A control plane of its own with a controller-manager, scheduler and kwok: the shared one is kept without them for
   * the tests that stand in for those components by hand.
   */
  @BeforeAll
  static void start() throws IOException {
    cp = ControlPlane.start(ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
        ControlPlane.Component.KWOK);
    cp.installCrds();
    for (UpstreamCrds set : ChaosFleet.OPTIONAL_KINDS) {
      cp.installCrdFiles(set.files());
    }
    PriorityClassInstaller.install(cp.client());
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  @AfterEach
  void stopReplicas() throws IOException {
    stopping.set(true);
    for (Replica r : replicas) {
      if (r.process != null) {
        r.process.destroyForcibly();
      }
    }
    try (var logs = Files.list(dir)) {
      for (Path log : logs.filter(p -> p.toString().endsWith(".log")).sorted().toList()) {
        String text = Files.readString(log);
        // The last lines of each incarnation, kept in the failsafe report.
        List<String> lines = text.lines().toList();
        System.out.println("----- " + log.getFileName() + "\n"
            + String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size())));
      }
    }
  }

  /** Sums every sample of {@code name} (all label sets) in a Prometheus text body. */
  static double sum(String metrics, String name) {
    return metrics.lines().filter(l -> l.startsWith(name + " ") || l.startsWith(name + "{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  private static long serviceAccountRequests(KubernetesClient admin) {
    return (long) admin.raw("/metrics").lines().filter(l -> l.startsWith(APF_SERVICE_ACCOUNTS))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
  }

  @Test
  void twoHundredServicesConvergeWhileTheLeaderIsKilledTwentyTimes() throws Exception {
    KubernetesClient admin = cp.client();
    String ns = "chaos";
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    Path kubeconfig = OperatorFixtures.serviceAccountKubeconfig(admin, ns, "modelplane-operator", cp.kubeconfig(),
        dir.resolve("operator.kubeconfig"));
    ChaosFleet fleet = ChaosFleet.of(ChaosFleet.size(), ns, "lc");
    cp.addNodes(fleet.nodes().toArray(FakeNode[]::new));
    List<HasMetadata> rendered = fleet.rendered();
    try {
      run(admin, ns, kubeconfig, fleet, rendered);
    } finally {
      stopping.set(true);
      replicas.forEach(r -> r.process.destroyForcibly());
    }
  }

  private void run(KubernetesClient admin, String ns, Path kubeconfig, ChaosFleet fleet, List<HasMetadata> rendered)
      throws Exception {
    Replica a = new Replica("op-a");
    Replica b = new Replica("op-b");
    replicas.addAll(List.of(a, b));
    a.start(kubeconfig, ns);
    b.start(kubeconfig, ns);
    await("a leader").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200)).ignoreExceptions()
        .until(() -> a.leading() || b.leading());
    Thread.sleep(3_000); // both replicas up: the baseline is the idle pair
    Chaos.Rate baseline = Chaos.Rate.measure(() -> serviceAccountRequests(admin),
        () -> a.reconciles() + b.reconciles(), IDLE_WINDOW);

    // Watches the leader gauges and restarts any replica whose process ended (killed or exited on its own).
    AtomicLong longestGapNanos = new AtomicLong();
    AtomicLong leaderlessNanos = new AtomicLong();
    Thread watcher = Thread.ofVirtual().start(() -> {
      long gapStart = -1;
      long last = System.nanoTime();
      while (!stopping.get()) {
        boolean led = false;
        for (Replica r : replicas) {
          if (!r.process.isAlive()) {
            if (!r.killedByTest) {
              r.unplannedExits.incrementAndGet();
            }
            try {
              r.start(kubeconfig, ns);
            } catch (IOException e) {
              throw new java.io.UncheckedIOException(e);
            }
          }
          led |= r.leading();
        }
        long now = System.nanoTime();
        if (!led) {
          leaderlessNanos.addAndGet(now - last);
          gapStart = gapStart < 0 ? last : gapStart;
          longestGapNanos.accumulateAndGet(now - gapStart, Math::max);
        } else {
          gapStart = -1;
        }
        last = now;
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          return;
        }
      }
    });

    long t0 = System.nanoTime();
    List<String> batches = fleet.batches(BATCHES);
    int kills = 0;
    for (int k = 0; k < KILLS; k++) {
      if (k % (KILLS / BATCHES) == 0) {
        String batch = batches.get(k / (KILLS / BATCHES));
        Chaos.retry(() -> ChaosFleet.apply(admin, batch));
      }
      await("a leader before kill " + (k + 1)).atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
          .ignoreExceptions().until(() -> replicas.stream().anyMatch(Replica::leading));
      Thread.sleep(1_500); // let it reconcile for a moment
      Replica leader = replicas.stream().filter(Replica::leading).findFirst().orElse(null);
      if (leader == null) {
        k--;
        continue;
      }
      leader.killedByTest = true;
      leader.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      kills++;
    }
    long faultsDone = System.nanoTime();
    await("a leader after the last kill").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
        .ignoreExceptions().until(() -> replicas.stream().anyMatch(Replica::leading));
    ChaosCheck.Report report = Chaos.awaitConvergence(admin, fleet, rendered, CONVERGENCE_TIMEOUT);
    Duration convergence = Duration.ofNanos(System.nanoTime() - t0);
    Duration afterFaults = Duration.ofNanos(System.nanoTime() - faultsDone);
    stopping.set(true);
    watcher.join(5_000);

    Thread.sleep(5_000);
    Chaos.Rate idle = Chaos.Rate.measure(() -> serviceAccountRequests(admin),
        () -> a.reconciles() + b.reconciles(), IDLE_WINDOW);
    ChaosCheck.Report after = ChaosCheck.check(admin, fleet, rendered);
    ChaosCheck.Events events = ChaosCheck.events(admin, ns);
    int unplanned = replicas.stream().mapToInt(r -> r.unplannedExits.get()).sum();
    String summary = ("leader-kill-chaos services=%d (llmkube=%d ome=%d modelservice=%d) objects=%d pods=%d "
        + "replicas=2 leaderKills=%d unplannedExits=%d converged=%s convergenceSeconds=%.1f "
        + "afterLastKillSeconds=%.1f longestLeaderlessSeconds=%.1f leaderlessTotalSeconds=%.1f %s | idle "
        + "operator requests/s=%.2f reconciles/s=%.2f vs baseline requests/s=%.2f reconciles/s=%.2f | events=%d "
        + "maxPerObjectReason=%d (%s)").formatted(fleet.services(), fleet.llmkube(), fleet.ome(),
        fleet.modelServices(), report.expected(), report.pods(), kills, unplanned, report.converged(),
        convergence.toMillis() / 1000.0, afterFaults.toMillis() / 1000.0, longestGapNanos.get() / 1e9,
        leaderlessNanos.get() / 1e9, after.brief(), idle.requestsPerSecond(), idle.reconcilesPerSecond(),
        baseline.requestsPerSecond(), baseline.reconcilesPerSecond(), events.total(),
        events.maxPerObjectAndReason(), events.worst());
    Chaos.summary(summary);
    LOG.info(summary);

    assertThat(report.converged()).as(report.details()).isTrue();
    assertThat(after.converged()).as("still converged after the idle window: " + after.details()).isTrue();
    assertThat(kills).isEqualTo(KILLS);
    assertThat(idle.requestsPerSecond()).as("no hot loop: idle request rate vs the idle pair's baseline")
        .isLessThanOrEqualTo(baseline.requestsPerSecond() * 1.5 + 0.5);
    assertThat(idle.reconcilesPerSecond()).as("no hot loop: idle reconcile rate").isLessThanOrEqualTo(0.2);
    assertThat(events.maxPerObjectAndReason()).as("Events per object and reason: " + events.worst())
        .isLessThanOrEqualTo(5);
    assertThat(events.total()).as("Events in all").isLessThanOrEqualTo(2 * fleet.services());
  }
}
