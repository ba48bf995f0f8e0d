package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpServer;
import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.api.ome.v1beta1.BenchmarkJobStatus;
import dev.modelplane.api.ome.v1beta1.BenchmarkResult;
import dev.modelplane.api.ome.v1beta1.BenchmarkState;
import dev.modelplane.api.ome.v1beta1.LatencyPercentiles;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.BenchmarkSettings;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.ome.benchmark.BenchmarkSummary;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * BenchmarkJobs on a real apiserver with the Job controller (no kubelet: pod states are written by hand through the
 * status subresource, as a kubelet would): the run waits, Pending, until its InferencePool has a ready endpoint and
 * then creates the Job with genai-bench's arguments; a failing benchmark container fails the run with its message;
 * a completed pod's summary becomes the results in status.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER})
class BenchmarkJobIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final String ROUTER = "http://router.test:8080";
  private static OperatorHarness harness;
  private static HttpServer models;

  @BeforeAll
  static void start(ControlPlane controlPlane) throws IOException {
    models = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    models.createContext("/v1/models", x -> {
      byte[] body = """
          {"object":"list","data":[{"id":"adapter","parent":"tiny-llama"},{"id":"tiny-llama","parent":null}]}
          """.getBytes(StandardCharsets.UTF_8);
      x.sendResponseHeaders(200, body.length);
      x.getResponseBody().write(body);
      x.close();
    });
    models.start();
    harness = OperatorHarness.start(controlPlane, OperatorSettings.defaults().toBuilder()
        .modelCache(OperatorSettings.ModelCacheSettings.disabled())
        .benchmark(new BenchmarkSettings(null, null, null, ROUTER, Duration.ofSeconds(1))).build());
  }

  @AfterAll
  static void stop() {
    if (harness != null) {
      harness.close();
    }
    if (models != null) {
      models.stop(0);
    }
  }

  private static BenchmarkJob benchmark(String name, String endpoint) {
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {name: %s}
        spec:
          endpoint: %s
          task: text-to-text
          trafficScenarios: ["D(100,100)"]
          numConcurrency: [1, 4]
          maxTimePerIteration: 1
          maxRequestsPerIteration: 20
          outputLocation: {storageUri: "pvc://results/runs"}
          resultFolderName: run
        """.formatted(name, endpoint), BenchmarkJob.class);
  }

  private static BenchmarkJobStatus status(KubernetesClient client, String name) {
    BenchmarkJob job = client.resources(BenchmarkJob.class).withName(name).get();
    return job == null ? null : job.getStatus();
  }

  private static BenchmarkJobStatus awaitState(KubernetesClient client, String name, BenchmarkState state) {
    await().atMost(TIMEOUT).until(() -> status(client, name) != null && status(client, name).state() == state);
    return status(client, name);
  }

  private static List<String> argv(Job job) {
    var c = job.getSpec().getTemplate().getSpec().getInitContainers().get(0);
    List<String> argv = new ArrayList<>(c.getCommand());
    argv.addAll(c.getArgs());
    return argv;
  }

  private static List<String> reasons(KubernetesClient client, String name) {
    return client.v1().events().list().getItems().stream()
        .filter(e -> name.equals(e.getInvolvedObject().getName())
            && "BenchmarkJob".equals(e.getInvolvedObject().getKind()))
        .map(Event::getReason).toList();
  }

  @Test
  void aRunWaitsForItsPoolsEndpointThenStartsAJobThroughTheRouter(KubeTest test) {
    KubernetesClient client = test.client();
    String ns = test.namespace();
    int port = models.getAddress().getPort();
    client.resource(Serialization.unmarshal("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata: {name: tiny-pool}
        spec:
          selector: {matchLabels: {app: tiny}}
          targetPorts: [{number: %d}]
          endpointPickerRef: {name: tiny-epp, port: {number: 9002}}
        """.formatted(port), GenericKubernetesResource.class)).create();
    client.resource(benchmark("pool-run", "{inferencePool: {name: tiny-pool, namespace: " + ns + "}}")).create();

    BenchmarkJobStatus pending = awaitState(client, "pool-run", BenchmarkState.Pending);
    assertThat(pending.details()).isEqualTo("waiting for the endpoint: InferencePool " + ns
        + "/tiny-pool has no ready endpoint");
    assertThat(client.batch().v1().jobs().withName("pool-run").get()).isNull();

    Pod server = client.resource(new PodBuilder().withNewMetadata().withName("tiny-0").addToLabels("app", "tiny")
        .endMetadata().withNewSpec().addNewContainer().withName("engine").withImage("vllm").addNewPort()
        .withContainerPort(port).endPort().endContainer().endSpec().build()).create();
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    writeStatus(client, server.getMetadata().getName(), new PodStatusBuilder().withPhase("Running")
        .withPodIP("127.0.0.1")
        .addNewCondition().withType("Ready").withStatus("True").withLastTransitionTime(now).endCondition()
        .build());

    BenchmarkJobStatus running = awaitState(client, "pool-run", BenchmarkState.Running);
    String base = ROUTER + "/inference-pools/" + ns + "/tiny-pool";
    assertThat(running.apiBase()).isEqualTo(base);
    assertThat(running.modelName()).as("the first model of the pod's /v1/models that is no adapter")
        .isEqualTo("tiny-llama");
    assertThat(running.reportLocation()).isEqualTo("pvc://results/runs/run");
    assertThat(running.startTime()).isNotNull();

    Job job = client.batch().v1().jobs().withName("pool-run").get();
    assertThat(job.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getKind()).isEqualTo("BenchmarkJob"));
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    assertThat(argv(job)).containsSequence("--api-base", base).containsSequence("--api-model-name", "tiny-llama")
        .containsSequence("--task", "text-to-text").containsSequence("--traffic-scenario", "D(100,100)")
        .containsSequence("--num-concurrency", "1", "--num-concurrency", "4")
        .containsSequence("--experiment-base-dir", "/benchmark-results", "--experiment-folder-name", "run");
    assertThat(job.getSpec().getTemplate().getSpec().getContainers()).singleElement()
        .satisfies(c -> assertThat(c.getArgs()).containsExactly("bench", "summarize", "--experiment-dir",
            "/benchmark-results/run"));
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(reasons(client, "pool-run"))
        .contains("BenchmarkPending", "BenchmarkStarted"));
  }

  /** Writes the state a kubelet would once the pod's containers ended, and waits for the Job to see it. */
  private static void finishPod(KubernetesClient client, String job, String phase, ContainerStatus benchmark,
      ContainerStatus results) {
    await().atMost(TIMEOUT).until(() -> !client.pods().withLabel("benchmark", job).list().getItems().isEmpty());
    Pod pod = client.pods().withLabel("benchmark", job).list().getItems().get(0);
    writeStatus(client, pod.getMetadata().getName(), new PodStatusBuilder().withPhase(phase)
        .withInitContainerStatuses(benchmark).withContainerStatuses(results).build());
  }

  /** Replaces a pod's status, reading it afresh when the scheduler or a controller changed the pod meanwhile. */
  private static void writeStatus(KubernetesClient client, String pod,
      io.fabric8.kubernetes.api.model.PodStatus status) {
    await().atMost(TIMEOUT).ignoreExceptionsMatching(e -> e instanceof io.fabric8.kubernetes.client
        .KubernetesClientException k && k.getCode() == 409).until(() -> {
          Pod fresh = client.pods().withName(pod).get();
          fresh.setStatus(status);
          client.pods().resource(fresh).updateStatus();
          return true;
        });
  }

  private static ContainerStatus terminated(String name, int exitCode, String reason, String message) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    return new ContainerStatusBuilder().withName(name).withImage("image").withImageID("").withReady(false)
        .withRestartCount(0).withNewState().withNewTerminated().withExitCode(exitCode).withReason(reason)
        .withMessage(message).withStartedAt(now).withFinishedAt(now).endTerminated().endState().build();
  }

  @Test
  void aFailingBenchmarkContainerFailsTheRunWithItsMessage(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(benchmark("broken", "{endpoint: {url: \"http://llm.test:8000\", apiFormat: openai, "
        + "modelName: tiny}}")).create();
    awaitState(client, "broken", BenchmarkState.Running);
    finishPod(client, "broken", "Failed",
        terminated("benchmark", 2, "Error", "Error: Invalid value for '--api-base': connection refused\n"),
        new ContainerStatusBuilder().withName("results").withImage("image").withImageID("").withReady(false)
            .withRestartCount(0).withNewState().withNewWaiting().withReason("PodInitializing").endWaiting()
            .endState().build());

    BenchmarkJobStatus failed = awaitState(client, "broken", BenchmarkState.Failed);
    assertThat(failed.failureMessage()).isEqualTo("container benchmark failed (exit code 2, reason Error): "
        + "Error: Invalid value for '--api-base': connection refused");
    assertThat(failed.completionTime()).isNotNull();
    assertThat(failed.results()).isNull();
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(reasons(client, "broken")).contains("BenchmarkFailed"));
  }

  @Test
  void aCompletedRunCarriesTheResultsSummaryOfItsPod(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(benchmark("done", "{endpoint: {url: \"http://llm.test:8000\", apiFormat: openai, "
        + "modelName: tiny}}")).create();
    awaitState(client, "done", BenchmarkState.Running);
    List<BenchmarkResult> rows = List.of(
        new BenchmarkResult("D(100,100)", 1, null, 20, 0.0, 12.5, 1.6, 160.0, 160.0,
            new LatencyPercentiles(0.05, 0.04, 0.08, 0.1), new LatencyPercentiles(0.6, 0.6, 0.7, 0.8)),
        new BenchmarkResult("D(100,100)", 4, null, 20, 0.05, 6.25, 3.2, 320.0, 320.0,
            new LatencyPercentiles(0.07, 0.06, 0.1, 0.2), new LatencyPercentiles(1.2, 1.1, 1.4, 1.6)));
    String summary = BenchmarkSummary.encode(rows, BenchmarkSummary.TERMINATION_MESSAGE_BYTES);
    finishPod(client, "done", "Succeeded", terminated("benchmark", 0, "Completed", null),
        terminated("results", 0, "Completed", summary));

    BenchmarkJobStatus completed = awaitState(client, "done", BenchmarkState.Completed);
    assertThat(completed.results()).isEqualTo(rows);
    assertThat(completed.resultsOmitted()).isNull();
    assertThat(completed.reportLocation()).isEqualTo("pvc://results/runs/run");
    assertThat(completed.modelName()).isEqualTo("tiny");
    assertThat(completed.apiBase()).isEqualTo("http://llm.test:8000");
    assertThat(completed.completionTime()).isNotNull();
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(reasons(client, "done"))
        .contains("BenchmarkStarted", "BenchmarkCompleted"));
  }

  private static final String REFERENCE_GRANT_CRD = """
      apiVersion: apiextensions.k8s.io/v1
      kind: CustomResourceDefinition
      metadata:
        name: referencegrants.gateway.networking.k8s.io
        annotations: {api-approved.kubernetes.io: "https://github.com/kubernetes-sigs/gateway-api/pull/1538"}
      spec:
        group: gateway.networking.k8s.io
        names: {kind: ReferenceGrant, listKind: ReferenceGrantList, plural: referencegrants, singular: referencegrant}
        scope: Namespaced
        versions:
        - name: v1beta1
          served: true
          storage: true
          schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
      """;

  private static GenericKubernetesResource grant(String namespace, String from, String poolName) {
    return Serialization.unmarshal("""
        apiVersion: gateway.networking.k8s.io/v1beta1
        kind: ReferenceGrant
        metadata: {name: benchmarks-from-%s-to-%s, namespace: %s}
        spec:
          from: [{group: ome.io, kind: BenchmarkJob, namespace: %s}]
          to: [{group: inference.networking.k8s.io, kind: InferencePool, name: %s}]
        """.formatted(from, poolName, namespace, from, poolName), GenericKubernetesResource.class);
  }

  @Test
  void aTargetInAnotherNamespaceRunsOnlyOnceAReferenceGrantThereAllowsIt(KubeTest test) throws Exception {
    KubernetesClient client = test.client();
    KubernetesClient admin = test.controlPlane().client();
    String ns = test.namespace();
    String other = test.uniqueName("serving");
    int port = models.getAddress().getPort();
    admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
        .withName(other).endMetadata().build()).create();
    var crd = admin.apiextensions().v1().customResourceDefinitions().withName(
        "referencegrants.gateway.networking.k8s.io");
    try {
      admin.resource(Serialization.unmarshal("""
          apiVersion: inference.networking.k8s.io/v1
          kind: InferencePool
          metadata: {name: tiny-pool, namespace: %s}
          spec:
            selector: {matchLabels: {app: tiny}}
            targetPorts: [{number: %d}]
            endpointPickerRef: {name: tiny-epp, port: {number: 9002}}
          """.formatted(other, port), GenericKubernetesResource.class)).create();
      client.resource(benchmark("cross", "{inferencePool: {name: tiny-pool, namespace: " + other + "}}")).create();

      String what = "PolicyRefused: spec.endpoint.inferencePool.namespace: InferencePool " + other
          + "/tiny-pool (inference.networking.k8s.io) is in another namespace than this BenchmarkJob (" + ns + ")";
      BenchmarkJobStatus refused = awaitState(client, "cross", BenchmarkState.Failed);
      assertThat(refused.failureMessage()).isEqualTo(what + ": that needs a ReferenceGrant "
          + "(gateway.networking.k8s.io/v1beta1) in " + other + ", and the ReferenceGrant CRD is not installed");
      assertThat(client.batch().v1().jobs().withName("cross").get()).isNull();
      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(reasons(client, "cross")).contains("PolicyRefused"));

      admin.resource(Serialization.unmarshal(REFERENCE_GRANT_CRD,
          io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition.class)).create();
      crd.waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
          .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())), 60,
          java.util.concurrent.TimeUnit.SECONDS);
      admin.resource(grant(other, ns, "another-pool")).create();
      admin.resource(grant(other, "elsewhere", "tiny-pool")).create();
      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(status(client, "cross").failureMessage())
          .isEqualTo(what + ", and no ReferenceGrant in " + other + " allows it: one there with from [{group: "
              + "ome.io, kind: BenchmarkJob, namespace: " + ns + "}] and to [{group: inference.networking.k8s.io, "
              + "kind: InferencePool, name: tiny-pool}] would"));
      assertThat(client.batch().v1().jobs().withName("cross").get()).isNull();

      admin.resource(grant(other, ns, "tiny-pool")).create();
      BenchmarkJobStatus pending = awaitState(client, "cross", BenchmarkState.Pending);
      assertThat(pending.details()).isEqualTo("waiting for the endpoint: InferencePool " + other
          + "/tiny-pool has no ready endpoint");
    } finally {
      crd.delete();
      admin.namespaces().withName(other).delete();
    }
  }

  /** The harness's inspection policy allows plain http and loopback (as --model-inspection-* flags would). */
  @Test
  void aUrlIsAskedForItsModelsOnlyWhereTheInspectionPolicyAllows(KubeTest test) {
    KubernetesClient client = test.client();
    String url = "http://127.0.0.1:" + models.getAddress().getPort();
    client.resource(benchmark("allowed", "{endpoint: {url: \"" + url + "\", apiFormat: openai}}")).create();
    assertThat(awaitState(client, "allowed", BenchmarkState.Running).modelName()).isEqualTo("tiny-llama");

    client.resource(benchmark("metadata", "{endpoint: {url: \"http://169.254.169.254\", apiFormat: openai}}"))
        .create();
    BenchmarkJobStatus refused = awaitState(client, "metadata", BenchmarkState.Failed);
    assertThat(refused.failureMessage()).isEqualTo("PolicyRefused: spec.endpoint.endpoint.url: the operator may not "
        + "ask this endpoint for its model list: 169.254.169.254: it resolves to 169.254.169.254, a link-local "
        + "address (cloud metadata lives at 169.254.169.254) (allowed by --model-inspection-allowed-cidrs); set "
        + "spec.endpoint.endpoint.modelName instead");
    assertThat(client.batch().v1().jobs().withName("metadata").get()).isNull();
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(reasons(client, "metadata")).contains("PolicyRefused"));
  }

  @Test
  void aJobOfTheSameNameThatIsNotTheRunsIsNotTakenOver(KubeTest test) {
    KubernetesClient client = test.client();
    client.batch().v1().jobs().resource(new io.fabric8.kubernetes.api.model.batch.v1.JobBuilder().withNewMetadata()
        .withName("taken").endMetadata().withNewSpec().withSuspend(true).withNewTemplate().withNewSpec()
        .withRestartPolicy("Never").addNewContainer().withName("c").withImage("busybox").endContainer().endSpec()
        .endTemplate().endSpec().build()).create();
    client.resource(benchmark("taken", "{endpoint: {url: \"http://llm.test:8000\", apiFormat: openai, "
        + "modelName: tiny}}")).create();
    BenchmarkJobStatus failed = awaitState(client, "taken", BenchmarkState.Failed);
    assertThat(failed.failureMessage()).isEqualTo("a Job named taken that this BenchmarkJob does not own exists "
        + "already: delete or rename it");
    assertThat(client.batch().v1().jobs().withName("taken").get().getMetadata().getOwnerReferences()).isEmpty();
  }
}
