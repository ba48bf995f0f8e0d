package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.isvc;
import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.testsupport.FreePorts;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code rolloutPolicy.waitForIdle} on a real apiserver with scheduler and kwok: the operator asks the pod's server
 * (a stand-in vLLM {@code /metrics} bound to the pod's loopback IP and port) and holds a pod-template change back
 * while it reports running requests.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
    ControlPlane.Component.KWOK})
class RolloutIdleIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static OperatorHarness harness;
  private final AtomicReference<String> running = new AtomicReference<>("3.0");
  private final java.util.Map<String, HttpServer> servers = new java.util.concurrent.ConcurrentHashMap<>();
  private int port;

  @BeforeAll
  static void start(ControlPlane controlPlane) {
    harness = OperatorHarness.start(controlPlane);
  }

  @AfterAll
  static void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  @AfterEach
  void stopServers() {
    servers.values().forEach(s -> s.stop(0));
  }

  /** Creates the service and serves vLLM-style metrics on its pod's IP and the container port. */
  private void serve(KubeTest test, String name, int idleTimeout) throws IOException {
    serve(test, name, idleTimeout, "");
  }

  private void serve(KubeTest test, String name, int idleTimeout, String extraSpec) throws IOException {
    KubernetesClient client = test.client();
    test.addNodes(FakeNode.cpu(test.uniqueName("idle")));
    port = FreePorts.pick();
    client.resource(model("llama", "source: test-org/llama")).create();
    client.resource(isvc(name, """
        modelRef: llama
        runtime: vllm
        containerPort: %d
        rolloutPolicy: {waitForIdle: true, idleTimeoutSeconds: %d}
        %s""".formatted(port, idleTimeout, extraSpec))).create();
    awaitServers(client, name, 1);
  }

  /** Waits for {@code count} serving pods and stands in for the server of each (on its loopback pod IP). */
  private void awaitServers(KubernetesClient client, String name, int count) {
    await().atMost(TIMEOUT).until(() -> pods(client, name).stream().filter(RolloutIdleIT::servingWithIp).count()
        >= count);
    for (Pod pod : pods(client, name).stream().filter(RolloutIdleIT::servingWithIp).toList()) {
      String ip = pod.getStatus().getPodIP();
      assertThat(ip).startsWith("127.");
      servers.computeIfAbsent(ip, this::metricsServer);
    }
  }

  private HttpServer metricsServer(String ip) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getByName(ip), port), 0);
      server.createContext("/metrics", exchange -> {
        try (exchange) {
          byte[] body = ("vllm:num_requests_running{model_name=\"llama\"} " + running.get() + "\n")
              .getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
        }
      });
      server.start();
      return server;
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static List<Pod> pods(KubernetesClient client, String name) {
    return client.pods().withLabel("inference.llmkube.dev/service", name).list().getItems();
  }

  private static boolean servingWithIp(Pod p) {
    return p.getMetadata().getDeletionTimestamp() == null && p.getStatus() != null && p.getStatus().getPodIP() != null
        && p.getStatus().getConditions() != null && p.getStatus().getConditions().stream()
            .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
  }

  private static Condition deferred(KubernetesClient client, String name) {
    InferenceService isvc = client.resources(InferenceService.class).withName(name).get();
    return isvc.getStatus() == null ? null : isvc.getStatus().conditions().stream()
        .filter(c -> c.getType().equals("RolloutDeferred")).findFirst().orElse(null);
  }

  private static List<String> args(KubernetesClient client, String name) {
    Deployment d = client.apps().deployments().withName(name).get();
    return d.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs();
  }

  @Test
  void aTemplateChangeWaitsForTheBusyServerButReplicasGoThrough(KubeTest test) throws Exception {
    KubernetesClient client = test.client();
    serve(test, "chat", 120);
    client.resources(InferenceService.class).withName("chat").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"extraArgs\":[\"--max-model-len=4096\"]}}");
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Condition c = deferred(client, "chat");
      assertThat(c).isNotNull();
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("WaitingForIdle");
      assertThat(c.getMessage()).startsWith("The new pod template waits until 1 of 1 replica(s) are idle");
    });
    assertThat(args(client, "chat")).doesNotContain("--max-model-len=4096");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().list().getItems())
        .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("RolloutDeferred")));

    client.resources(InferenceService.class).withName("chat").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"replicas\":2}}");
    await().atMost(TIMEOUT).until(() -> client.apps().deployments().withName("chat").get().getSpec()
        .getReplicas() == 2);
    assertThat(args(client, "chat")).as("still held back").doesNotContain("--max-model-len=4096");
    awaitServers(client, "chat", 2);

    running.set("0.0");
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(args(client, "chat")).contains("--max-model-len=4096");
      Condition c = deferred(client, "chat");
      assertThat(c.getStatus()).isEqualTo("False");
      assertThat(c.getReason()).isIn("Idle", "UpToDate");
    });
  }

  @Test
  void aServerThatStaysBusyIsRolledAfterTheIdleTimeout(KubeTest test) throws Exception {
    KubernetesClient client = test.client();
    serve(test, "busy", 4);
    client.resources(InferenceService.class).withName("busy").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"extraArgs\":[\"--max-model-len=2048\"]}}");
    await().atMost(TIMEOUT).until(() -> deferred(client, "busy") != null
        && "True".equals(deferred(client, "busy").getStatus()));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(args(client, "busy")).contains("--max-model-len=2048");
      assertThat(deferred(client, "busy").getStatus()).isEqualTo("False");
    });
    assertThat(client.v1().events().list().getItems().stream()
        .filter(e -> "RolloutDeferred".equals(e.getReason()))).isNotEmpty();
  }

  @Test
  void anExpiredPodIsRecycledOnlyOnceItsServerIsIdle(KubeTest test) throws Exception {
    KubernetesClient client = test.client();
    serve(test, "aging", 120, "maxPodLifetimeSeconds: 2\n");
    String first = pods(client, "aging").stream().filter(RolloutIdleIT::servingWithIp).findFirst().orElseThrow()
        .getMetadata().getName();
    // Busy: well past its lifetime, the pod stays.
    Thread.sleep(8_000);
    assertThat(client.pods().withName(first).get()).isNotNull();
    assertThat(client.pods().withName(first).get().getMetadata().getDeletionTimestamp()).isNull();

    running.set("0.0");
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Pod p = client.pods().withName(first).get();
      assertThat(p == null || p.getMetadata().getDeletionTimestamp() != null).as("evicted once idle").isTrue();
    });
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.v1().events().list().getItems())
        .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("PodRecycled")));
  }
}
