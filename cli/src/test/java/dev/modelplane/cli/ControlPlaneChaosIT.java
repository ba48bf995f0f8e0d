package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.app.ModelplaneOperator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The operator (in-process, counting its own API requests) rolls out a {@link ChaosFleet} of 200 services while the
 * kube-apiserver is killed with SIGKILL and started again ten times and etcd is restarted twice (once killed, once
 * stopped), on a control plane of its own (real etcd, apiserver, controller-manager, scheduler, kwok). Afterwards
 * every object is what {@code modelplane render} says, owned, once; every status reached its phase; the operator's
 * request rate falls back to its idle baseline; and no object got a storm of Events.
 */
@WithControlPlane // for its rule on missing binaries (skip locally, fail under CI); the faults go to a plane of its own
class ControlPlaneChaosIT {
  private static final Logger LOG = LoggerFactory.getLogger(ControlPlaneChaosIT.class);
  private static final int BATCHES = 10;
  /** SIGKILLs of the apiserver, one after each batch: 10, or the system property {@code chaos.apiserverKills}. */
  private static final int KILLS = Integer.getInteger("chaos.apiserverKills", 10);
  private static final Duration CONVERGENCE_TIMEOUT = Duration.ofSeconds(300);
  private static final Duration IDLE_WINDOW = Duration.ofSeconds(10);
  private static ControlPlane cp;

  @BeforeAll
  static void start() throws IOException {
    // Its own control plane: the faults must not reach the one the other test classes share.
    cp = ControlPlane.start(ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
        ControlPlane.Component.KWOK);
    cp.installCrds();
    // Every kind a ModelService may own is served, so no service waits on a missing kind (rechecked every minute).
    for (UpstreamCrds set : ChaosFleet.OPTIONAL_KINDS) {
      cp.installCrdFiles(set.files());
    }
  }

  @AfterAll
  static void stop() {
    if (cp != null) {
      cp.close();
    }
  }

  /** An admin client like {@link ControlPlane#newClient()}, counting every request it sends. */
  private static KubernetesClient countingClient(RequestCounter requests) throws IOException {
    Config config = Config.fromKubeconfig(Files.readString(cp.kubeconfig()));
    config.setRequestTimeout(30_000);
    return new KubernetesClientBuilder().withConfig(config)
        .withHttpClientBuilderConsumer(b -> b.addOrReplaceInterceptor("chaos-count", requests)).build();
  }

  /** Reconciles started per controller, e.g. {@code {inferenceservicereconciler=12.0}}. */
  private static java.util.Map<String, Double> reconcilesByController(SimpleMeterRegistry registry) {
    java.util.Map<String, Double> out = new java.util.TreeMap<>();
    registry.getMeters().stream().filter(m -> m.getId().getName().endsWith("reconciliations.started"))
        .filter(Counter.class::isInstance).forEach(m -> out.merge(String.valueOf(m.getId().getTags()),
            ((Counter) m).count(), Double::sum));
    return out;
  }

  private static double reconciles(SimpleMeterRegistry registry) {
    return registry.getMeters().stream().filter(m -> m.getId().getName().endsWith("reconciliations.started"))
        .filter(Counter.class::isInstance).mapToDouble(m -> ((Counter) m).count()).sum();
  }

  @Test
  void twoHundredServicesConvergeThroughTenApiServerKillsAndTwoEtcdRestarts() throws Exception {
    KubernetesClient admin = cp.client();
    String ns = "chaos";
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(ns).endMetadata().build())
        .create();
    ChaosFleet fleet = ChaosFleet.of(ChaosFleet.size(), ns, "cp");
    cp.addNodes(fleet.nodes().toArray(FakeNode[]::new));
    List<HasMetadata> rendered = fleet.rendered();

    RequestCounter requests = new RequestCounter();
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    try (KubernetesClient client = countingClient(requests);
        ModelplaneOperator operator = ModelplaneOperator.create(client,
            ChaosFleet.settings().withCreatePriorityClasses(true), registry, null).start()) {
      await("operator ready").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
          .ignoreExceptions().until(operator::ready);
      Chaos.Rate baseline = Chaos.Rate.measure(requests::total, () -> reconciles(registry), IDLE_WINDOW);

      long t0 = System.nanoTime();
      List<String> batches = fleet.batches(BATCHES);
      int apiserverKills = 0;
      int etcdRestarts = 0;
      for (int i = 0; i < BATCHES; i++) {
        String batch = batches.get(i);
        Chaos.retry(() -> ChaosFleet.apply(admin, batch));
        Thread.sleep(1_500); // the operator is now in the middle of reconciling the batch
        if (i < KILLS) {
          cp.stopCore(ControlPlane.Core.KUBE_APISERVER, true);
          apiserverKills++;
          Thread.sleep(1_000);
          cp.startCore(ControlPlane.Core.KUBE_APISERVER);
        }
        if ((i == 3 || i == 7) && KILLS > 0) {
          Thread.sleep(1_000);
          cp.stopCore(ControlPlane.Core.ETCD, i == 3);
          etcdRestarts++;
          Thread.sleep(1_000);
          cp.startCore(ControlPlane.Core.ETCD);
        }
      }
      long faultsDone = System.nanoTime();
      ChaosCheck.Report report = Chaos.awaitConvergence(admin, fleet, rendered, CONVERGENCE_TIMEOUT);
      Duration convergence = Duration.ofNanos(System.nanoTime() - t0);
      Duration afterFaults = Duration.ofNanos(System.nanoTime() - faultsDone);

      Thread.sleep(5_000); // let the last status writes and their echoes pass
      var shapesBefore = requests.snapshot();
      var reconcilesBefore = reconcilesByController(registry);
      Chaos.Rate idle = Chaos.Rate.measure(requests::total, () -> reconciles(registry), IDLE_WINDOW);
      LOG.info("idle window requests={} reconciles before={} after={}", requests.since(shapesBefore, 12),
          reconcilesBefore, reconcilesByController(registry));
      ChaosCheck.Report after = ChaosCheck.check(admin, fleet, rendered);
      ChaosCheck.Events events = ChaosCheck.events(admin, ns);
      String summary = ("apiserver-etcd-chaos services=%d (llmkube=%d ome=%d modelservice=%d) objects=%d pods=%d "
          + "apiserverKills=%d etcdRestarts=%d converged=%s convergenceSeconds=%.1f afterLastFaultSeconds=%.1f "
          + "%s | idle requests/s=%.2f (sustained %.2f) reconciles/s=%.2f "
          + "vs baseline requests/s=%.2f reconciles/s=%.2f | "
          + "events=%d maxPerObjectReason=%d (%s)").formatted(fleet.services(), fleet.llmkube(), fleet.ome(),
          fleet.modelServices(), report.expected(), report.pods(), apiserverKills, etcdRestarts, report.converged(),
          convergence.toMillis() / 1000.0, afterFaults.toMillis() / 1000.0, after.brief(), idle.requestsPerSecond(),
          idle.sustainedRequestsPerSecond(), idle.reconcilesPerSecond(), baseline.requestsPerSecond(),
          baseline.reconcilesPerSecond(), events.total(), events.maxPerObjectAndReason(), events.worst());
      Chaos.summary(summary);
      LOG.info(summary);

      assertThat(report.converged()).as(report.details()).isTrue();
      assertThat(after.converged()).as("still converged after the idle window: " + after.details()).isTrue();
      assertThat(idle.sustainedRequestsPerSecond()).as("no hot loop: sustained idle request rate vs baseline")
          .isLessThanOrEqualTo(baseline.requestsPerSecond() + 0.5);
      assertThat(idle.reconcilesPerSecond()).as("no hot loop: idle reconcile rate").isLessThanOrEqualTo(0.2);
      assertThat(events.maxPerObjectAndReason()).as("Events per object and reason: " + events.worst())
          .isLessThanOrEqualTo(5);
      assertThat(events.total()).as("Events in all").isLessThanOrEqualTo(2 * fleet.services());
    }
  }
}
