package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code modelplane operator} as users run it: the shaded jar in its own JVM, authenticated as the service account of
 * {@code deploy/operator/rbac.yaml} (so a permission missing from the manifest fails here), two replicas electing a
 * leader through a Lease, the HTTP endpoints, graceful hand-over on SIGTERM and take-over after a crash.
 */
@WithControlPlane
class OperatorProcessIT {
  private static final Duration TIMEOUT = OperatorFixtures.TIMEOUT;
  private static final ObjectMapper JSON = new ObjectMapper();
  /** Long enough that a follower taking over well before it proves the lease was handed back, not left to expire. */
  private static final Duration LEASE = Duration.ofSeconds(30);

  private final List<OperatorProcess> processes = new ArrayList<>();

  @TempDir
  Path dir;

  @AfterEach
  void stopProcesses() throws Exception {
    for (OperatorProcess p : processes) {
      // Kept in the failsafe report, for when a test fails: the threads of a replica still running, then its log.
      if (p.process.isAlive()) {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(p.process.pid()), "Thread.print").redirectErrorStream(true).start();
        String threads = new String(jcmd.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        jcmd.waitFor(30, TimeUnit.SECONDS);
        System.out.println("----- threads of " + p.logFile().getFileName() + "\n" + threads);
      }
      p.kill();
      System.out.println("----- " + p.logFile().getFileName() + "\n" + p.log());
    }
  }

  @Test
  void twoReplicasElectALeaderServeTheirEndpointsAndHandOverOnSigterm(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    Path kubeconfig = OperatorFixtures.serviceAccountKubeconfig(test, dir.resolve("operator.kubeconfig"));

    OperatorProcess a = start("op-a", kubeconfig, ns);
    OperatorFixtures.awaitLeader(admin, ns, "op-a");
    await().atMost(TIMEOUT).until(() -> a.status("/readyz") == 200);
    OperatorProcess b = start("op-b", kubeconfig, ns, "--log-format=json");
    await().atMost(TIMEOUT).until(() -> b.status("/readyz") == 200);

    assertThat(a.get("/healthz").body()).isEqualTo("ok\n");
    assertThat(b.get("/healthz").statusCode()).isEqualTo(200);
    assertThat(OperatorFixtures.gauge(a.get("/metrics").body(), "modelplane_operator_leader")).isEqualTo(1.0);
    assertThat(OperatorFixtures.gauge(b.get("/metrics").body(), "modelplane_operator_leader")).isEqualTo(0.0);
    assertThat(OperatorFixtures.holder(admin, ns)).isEqualTo("op-a");

    // The leader reconciles, with nothing but the manifest's permissions.
    OperatorFixtures.applyModelAndService(admin, "first");
    OperatorFixtures.awaitDeployment(admin, "first");
    String metrics = a.get("/metrics").body();
    assertThat(metrics).contains("jvm_memory_used_bytes");
    assertThat(metrics.lines().filter(l -> l.startsWith("operator_sdk_reconciliations_executions")).toList())
        .as("JOSDK reconcile counters").isNotEmpty();

    // Structured logs: the lines of a reconcile name its resource (JOSDK's MDC) — the status line, or the retry line
    // when the first apply met a conflict.
    java.util.regex.Pattern reconcileLine = java.util.regex.Pattern.compile(
        "level=INFO logger=(LlmkubeInferenceServiceReconciler|ModelReconciler) event=(status|retry) (isvc|model)=" + ns
            + "/first .*resource=" + ns + "/first resource.kind=(InferenceService|Model)");
    // Either replica's: on a loaded machine the leader may change hands before the line is written.
    await().atMost(TIMEOUT).until(() -> reconcileLine.matcher(a.log() + b.log()).find());

    // SIGTERM: the leader stops its controllers, hands the lease back and exits 0; the follower takes over well
    // before the lease would have expired.
    long t0 = System.nanoTime();
    a.process.destroy();
    assertThat(a.process.waitFor(30, TimeUnit.SECONDS)).as("op-a exits after SIGTERM").isTrue();
    assertThat(a.process.exitValue()).isZero();
    OperatorFixtures.awaitLeader(admin, ns, "op-b");
    Duration takeOver = Duration.ofNanos(System.nanoTime() - t0);
    assertThat(takeOver).as("take-over after a graceful stop").isLessThan(LEASE);
    assertThat(a.log()).contains("released lease=" + ns + "/modelplane-operator identity=op-a", "stopped exitCode=0");
    await().atMost(TIMEOUT).until(() -> OperatorFixtures.gauge(b.get("/metrics").body(), "modelplane_operator_leader") == 1.0);

    OperatorFixtures.applyModelAndService(admin, "second");
    OperatorFixtures.awaitDeployment(admin, "second");

    // Structured logs: one JSON object per line with --log-format=json (the status line may follow the Deployment).
    await().atMost(TIMEOUT).untilAsserted(() -> {
      List<JsonNode> json = new ArrayList<>();
      for (String line : b.log().lines().filter(l -> l.startsWith("{")).toList()) {
        json.add(JSON.readTree(line));
      }
      assertThat(json).anySatisfy(l -> {
        assertThat(l.path("level").asText()).isEqualTo("INFO");
        assertThat(l.path("event").asText()).isEqualTo("leading");
        assertThat(l.path("identity").asText()).isEqualTo("op-b");
      });
      assertThat(json).anySatisfy(l -> {
        assertThat(l.path("event").asText()).isIn("status", "retry");
        assertThat(l.path("isvc").asText()).isEqualTo(ns + "/second");
        assertThat(l.path("resource").asText()).isEqualTo(ns + "/second");
        assertThat(l.path("resource.kind").asText()).isEqualTo("InferenceService");
      });
    });
  }

  @Test
  void aFollowerTakesOverWhenTheLeaderDiesWithoutReleasingTheLease(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    Path kubeconfig = OperatorFixtures.serviceAccountKubeconfig(test, dir.resolve("operator.kubeconfig"));

    OperatorProcess a = start("op-a", kubeconfig, ns, "--lease-duration=4s", "--renew-deadline=3s",
        "--retry-period=1s");
    OperatorFixtures.awaitLeader(admin, ns, "op-a");
    OperatorProcess b = start("op-b", kubeconfig, ns, "--lease-duration=4s", "--renew-deadline=3s",
        "--retry-period=1s");
    await().atMost(TIMEOUT).until(() -> b.status("/readyz") == 200);

    a.process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    assertThat(OperatorFixtures.holder(admin, ns)).as("a crashed leader leaves the lease behind").isEqualTo("op-a");
    OperatorFixtures.awaitLeader(admin, ns, "op-b");
    OperatorFixtures.applyModelAndService(admin, "after-crash");
    OperatorFixtures.awaitDeployment(admin, "after-crash");
  }

  @Test
  void aLeaderThatLosesItsLeaseExitsNonZero(KubeTest test) throws Exception {
    KubernetesClient admin = test.client();
    String ns = test.namespace();
    OperatorProcess a = start("op-a", OperatorFixtures.serviceAccountKubeconfig(test, dir.resolve("operator.kubeconfig")), ns, "--lease-duration=60s",
        "--renew-deadline=3s", "--retry-period=1s");
    OperatorFixtures.awaitLeader(admin, ns, "op-a");

    // Someone else takes the lease (as after a long pause of this process): the leader can no longer renew.
    // A merge patch carries no resourceVersion, so it cannot conflict with the leader's renewals (every second).
    String now = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS).toString();
    admin.leases().inNamespace(ns).withName("modelplane-operator").patch(
        PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"holderIdentity\":\"intruder\",\"renewTime\":\"" + now + "\"}}");
    assertThat(a.process.waitFor(60, TimeUnit.SECONDS)).as("op-a exits after losing the lease").isTrue();
    assertThat(a.process.exitValue()).isEqualTo(1);
    assertThat(a.log()).contains("event=lost lease=" + ns + "/modelplane-operator identity=op-a",
        "stopped exitCode=1");
    assertThat(OperatorFixtures.holder(admin, ns)).as("a lost lease is not released").isEqualTo("intruder");
  }

  @Test
  void inconsistentLeaseTimingIsAUsageError() throws Exception {
    OperatorProcess p = start("op-x", dir.resolve("missing-kubeconfig"), "default", "--lease-duration=5s",
        "--renew-deadline=5s");
    assertThat(p.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.process.exitValue()).isEqualTo(2);
    assertThat(p.log()).contains("the lease duration (5s) must be longer than the renew deadline (5s)",
        "Usage: modelplane operator");
  }

  private OperatorProcess start(String identity, Path kubeconfig, String ns, String... extra) throws IOException {
    int port = FreePorts.pick();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-Xmx256m", "-jar", OperatorFixtures.jar().toString(), "operator", "--kubeconfig=" + kubeconfig,
        "--lease-namespace=" + ns, "--bind-address=127.0.0.1", "--http-port=" + port, "--model-cache=none"));
    if (Arrays.stream(extra).noneMatch(a -> a.startsWith("--lease-duration="))) {
      command.add("--lease-duration=" + LEASE.toSeconds() + "s");
    }
    command.addAll(List.of(extra));
    Path log = dir.resolve(identity + ".log");
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().put("POD_NAME", identity);
    OperatorProcess p = new OperatorProcess(builder.start(), port, log);
    processes.add(p);
    return p;
  }

  private record OperatorProcess(Process process, int port, Path logFile) {
    /** The HTTP status of {@code path}, or -1 while nothing listens on the port. */
    int status(String path) throws IOException, InterruptedException {
      return OperatorFixtures.status(port, path);
    }

    HttpResponse<String> get(String path) throws IOException, InterruptedException {
      return OperatorFixtures.get(port, path);
    }

    String log() throws IOException {
      return Files.readString(logFile);
    }

    void kill() {
      process.destroyForcibly();
    }
  }
}
