package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.isvc;
import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.scheduling.QueueMetrics;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GPU scheduling with kube-scheduler and kwok nodes: services whose pods cannot get a GPU are WaitingForGPU, queued by
 * priority then age across namespaces; a GPU count above every node is reported on the field.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
    ControlPlane.Component.KWOK})
class GpuSchedulingIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static OperatorHarness harness;

  @BeforeAll
  static void startOperator(ControlPlane controlPlane) {
    harness = OperatorHarness.start(controlPlane);
  }

  @AfterAll
  static void stopOperator() {
    if (harness != null) {
      harness.close();
    }
  }

  private static String suffix(KubeTest test) {
    return test.namespace().substring(test.namespace().lastIndexOf('-') + 1);
  }

  private static InferenceService get(KubernetesClient client, String ns, String name) {
    return client.resources(InferenceService.class).inNamespace(ns).withName(name).get();
  }

  private static Condition condition(InferenceService isvc, String type) {
    assertThat(isvc.getStatus()).as("status").isNotNull();
    return isvc.getStatus().conditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void expiredPodsAreRecycledOneAtATime(KubeTest test) throws IOException {
    KubernetesClient client = test.client();
    test.addNodes(FakeNode.cpu("recycle-" + suffix(test)));
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("recycled", "modelRef: llama\nreplicas: 2\nmaxPodLifetimeSeconds: 4")).create();
    java.util.function.Supplier<List<Pod>> pods = () -> client.pods()
        .withLabel("inference.llmkube.dev/service", "recycled").list().getItems();
    await().atMost(TIMEOUT).until(() -> pods.get().stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null
        && "Running".equals(p.getStatus().getPhase())).count() == 2);
    List<String> first = pods.get().stream().map(p -> p.getMetadata().getName()).toList();
    java.util.Set<Integer> liveCounts = java.util.concurrent.ConcurrentHashMap.newKeySet();
    await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
      List<Pod> now = pods.get();
      liveCounts.add((int) now.stream().filter(p -> p.getMetadata().getDeletionTimestamp() == null).count());
      assertThat(now).extracting(p -> p.getMetadata().getName()).doesNotContainAnyElementsOf(first);
    });
    List<Event> recycled = client.v1().events().list().getItems().stream()
        .filter(e -> "PodRecycled".equals(e.getReason())).toList();
    assertThat(recycled).hasSizeGreaterThanOrEqualTo(2)
        .allSatisfy(e -> assertThat(e.getMessage()).contains("(maxPodLifetimeSeconds=4)"));
    // One at a time: the Deployment never had fewer than one live pod while its pods were recycled.
    assertThat(liveCounts).doesNotContain(0);
  }

  @Test
  void aDisruptionBudgetThatRefusesRecyclingIsReportedWithBackOff(KubeTest test) throws Exception {
    KubernetesClient client = test.client();
    test.addNodes(FakeNode.cpu("guarded-" + suffix(test)));
    client.resource(new io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder()
        .withNewMetadata().withName("keep-one").endMetadata()
        .withNewSpec().withMinAvailable(new io.fabric8.kubernetes.api.model.IntOrString(1))
        .withNewSelector().addToMatchLabels("inference.llmkube.dev/service", "kept").endSelector().endSpec()
        .build()).create();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("kept", "modelRef: llama\nmaxPodLifetimeSeconds: 2")).create();
    java.util.function.Supplier<List<Event>> blocked = () -> client.v1().events().list().getItems().stream()
        .filter(e -> "RecycleBlocked".equals(e.getReason())).toList();
    await().atMost(TIMEOUT).until(() -> blocked.get().size() >= 2);
    assertThat(blocked.get()).extracting(Event::getMessage).anySatisfy(m -> assertThat(m)
        .contains("2 times in a row").endsWith("retrying in 20s"));
    // The third refusal comes 20 s after the second and raises no Warning; the fourth only after 40 s more.
    Thread.sleep(15_000);
    assertThat(blocked.get()).as("no Warning every 10 s").hasSize(2);
    assertThat(client.pods().withLabel("inference.llmkube.dev/service", "kept").list().getItems())
        .singleElement().satisfies(p -> assertThat(p.getMetadata().getDeletionTimestamp()).isNull());
  }

  @Test
  void podsCarryDoNotDisruptUntilTheyAreReadyWithoutARollout(KubeTest test) throws IOException {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("guarded", "modelRef: llama\nresources: {gpu: 1}")).create();
    // No GPU node yet: the pod stays Pending, so it is still starting and must be protected.
    await().atMost(TIMEOUT).untilAsserted(() -> {
      List<Pod> pods = client.pods().withLabel("inference.llmkube.dev/service", "guarded").list().getItems();
      assertThat(pods).singleElement().satisfies(p -> assertThat(p.getMetadata().getAnnotations())
          .containsEntry("karpenter.sh/do-not-disrupt", "true"));
    });
    String podName = client.pods().withLabel("inference.llmkube.dev/service", "guarded").list().getItems()
        .getFirst().getMetadata().getName();
    test.addNodes(FakeNode.nvidia("guard-" + suffix(test), 1));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Pod p = client.pods().withName(podName).get();
      assertThat(p).as("the same pod, not a rolled replacement").isNotNull();
      assertThat(p.getStatus().getConditions()).anySatisfy(c -> {
        assertThat(c.getType()).isEqualTo("Ready");
        assertThat(c.getStatus()).isEqualTo("True");
      });
      assertThat(p.getMetadata().getAnnotations()).doesNotContainKey("karpenter.sh/do-not-disrupt");
    });
    assertThat(client.apps().deployments().withName("guarded").get().getSpec().getTemplate().getMetadata()
        .getAnnotations()).doesNotContainKey("karpenter.sh/do-not-disrupt");
  }

  @Test
  void aHigherPriorityServiceInAnotherNamespaceQueuesAhead(KubeTest test) throws IOException {
    String nodeName = "gpu-" + suffix(test);
    test.addNodes(FakeNode.nvidia(nodeName, 2));
    KubernetesClient client = test.client();
    String other = "queue-b-" + suffix(test);
    client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(other)
        .addToLabels("modelplane.dev/test", "true").endMetadata().build()).create();
    try {
      Pod blocker = new PodBuilder().withNewMetadata().withName("blocker").endMetadata()
          .withNewSpec().withNodeSelector(Map.of("kubernetes.io/hostname", nodeName))
          .withPriorityClassName("llmkube-critical")
          .addNewContainer().withName("hog").withImage("registry.invalid/hog:1")
          .withNewResources().withLimits(Map.of("nvidia.com/gpu", new Quantity("2"))).endResources()
          .endContainer().endSpec().build();
      client.pods().resource(blocker).create();
      await().atMost(TIMEOUT).until(() -> "Running".equals(client.pods().withName("blocker").get().getStatus()
          .getPhase()));

      client.resource(model("llama", "source: test-org/llama-gguf")).create();
      client.resource(isvc("normal-svc", "modelRef: llama\nresources: {gpu: 1}\npriority: normal")).create();
      await().atMost(TIMEOUT).untilAsserted(() -> {
        InferenceService isvc = get(client, test.namespace(), "normal-svc");
        assertThat(isvc.getStatus()).isNotNull();
        assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.WAITING_FOR_GPU);
        assertThat(isvc.getStatus().queuePosition()).isEqualTo(1);
        assertThat(isvc.getStatus().waitingFor()).isEqualTo("nvidia.com/gpu: 1");
        assertThat(isvc.getStatus().schedulingStatus()).isEqualTo("InsufficientGPU");
        assertThat(condition(isvc, "GPUAvailable").getStatus()).isEqualTo("False");
      });

      client.resource(model("llama", "source: test-org/llama-gguf")).inNamespace(other).create();
      client.resource(isvc("high-svc", "modelRef: llama\nresources: {gpu: 1}\npriority: high")).inNamespace(other)
          .create();
      await().atMost(TIMEOUT).untilAsserted(() -> {
        InferenceService high = get(client, other, "high-svc");
        assertThat(high.getStatus()).isNotNull();
        assertThat(high.getStatus().phase()).isEqualTo(InferenceServicePhase.WAITING_FOR_GPU);
        assertThat(high.getStatus().queuePosition()).isEqualTo(1);
        assertThat(high.getStatus().effectivePriority()).isEqualTo(100000);
        InferenceService normal = get(client, test.namespace(), "normal-svc");
        assertThat(normal.getStatus().queuePosition()).isEqualTo(2);
        assertThat(condition(normal, "Progressing").getMessage()).isEqualTo("Queued at position 2 waiting for GPU");
      });
      assertThat(harness.registry.get(QueueMetrics.NAME).tag("namespace", test.namespace()).gauge().value())
          .isEqualTo(1.0);

      client.pods().withName("blocker").delete();
      await().atMost(TIMEOUT).untilAsserted(() -> {
        InferenceService high = get(client, other, "high-svc");
        assertThat(high.getStatus().phase()).isNotEqualTo(InferenceServicePhase.WAITING_FOR_GPU);
        assertThat(high.getStatus().queuePosition()).isZero();
      });
    } finally {
      client.namespaces().withName(other).delete();
    }
  }

  @Test
  void moreGpusThanAnyNodeHasIsReportedOnTheField(KubeTest test) throws IOException {
    test.addNodes(FakeNode.nvidia("gpu-" + suffix(test), 2));
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("too-big", "modelRef: llama\nresources: {gpu: 3}")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, test.namespace(), "too-big");
      assertThat(isvc.getStatus()).isNotNull();
      assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.WAITING_FOR_GPU);
      assertThat(isvc.getStatus().waitingFor()).isEqualTo("nvidia.com/gpu: 3");
      Condition degraded = condition(isvc, "Degraded");
      assertThat(degraded.getReason()).isEqualTo("ExceedsNodeCapacity");
      assertThat(degraded.getMessage()).startsWith("spec.resources.gpu: 3 nvidia.com/gpu per pod")
          .contains("the largest node has 2");
      assertThat(client.v1().events().list().getItems()).anySatisfy(e -> {
        assertThat(e.getType()).isEqualTo("Warning");
        assertThat(e.getReason()).isEqualTo("ExceedsNodeCapacity");
        assertThat(e.getInvolvedObject().getName()).isEqualTo("too-big");
      });
    });
  }

  @Test
  void podsRefusedForAMissingRuntimeClassComeSoonAfterItIsCreated(KubeTest test) throws Exception {
    test.addNodes(FakeNode.cpu("cpu-" + suffix(test)));
    KubernetesClient client = test.client();
    String runtimeClass = "rc-" + suffix(test);
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("refused", "modelRef: llama\nreplicas: 1\nresources: {cpu: 100m}\nruntimeClassName: "
        + runtimeClass)).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService refused = get(client, test.namespace(), "refused");
      assertThat(refused.getStatus()).isNotNull();
      assertThat(refused.getStatus().conditions()).anySatisfy(c -> assertThat(c.getMessage())
          .contains("pods cannot be created").contains(runtimeClass));
    });
    // Let the ReplicaSet controller's backoff grow past what the assertion below allows.
    Thread.sleep(30_000);
    assertThat(client.pods().withLabel("app", "refused").list().getItems()).isEmpty();
    client.resource(new io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder().withNewMetadata()
        .withName(runtimeClass).endMetadata().withHandler("runc").build()).create();
    try {
      await().atMost(Duration.ofSeconds(25)).untilAsserted(() -> assertThat(client.pods().withLabel("app", "refused")
          .list().getItems()).hasSize(1));
      assertThat(client.apps().replicaSets().withLabel("app", "refused").list().getItems())
          .anySatisfy(rs -> assertThat(rs.getMetadata().getAnnotations()).containsKey("modelplane.dev/nudged-at"));
    } finally {
      client.resource(new io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder().withNewMetadata()
          .withName(runtimeClass).endMetadata().withHandler("runc").build()).delete();
    }
  }

  @Test
  void readyPodsMakeTheServiceReady(KubeTest test) throws IOException {
    test.addNodes(FakeNode.cpu("cpu-" + suffix(test)));
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", "modelRef: llama\nreplicas: 2\nresources: {cpu: 100m}")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.pods().withLabel("app", "chat").list().getItems())
        .hasSize(2).allSatisfy(p -> assertThat(p.getStatus().getPhase()).isEqualTo("Running")));
    for (Pod pod : client.pods().withLabel("app", "chat").list().getItems()) {
      boolean ready = pod.getStatus().getConditions().stream()
          .anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
      if (!ready) {
        OperatorHarness.markReady(client, pod);
      }
    }
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, test.namespace(), "chat");
      assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.READY);
      assertThat(isvc.getStatus().readyReplicas()).isEqualTo(2);
      assertThat(isvc.getStatus().replicas()).isEqualTo(2);
      assertThat(condition(isvc, "Available").getReason()).isEqualTo("InferenceReady");
      assertThat(condition(isvc, "Progressing").getStatus()).isEqualTo("False");
    });
  }

  @Test
  void aDeletedServiceLeavesTheQueueBeforeItsFinalizerGoes(KubeTest test) throws IOException {
    // A node without GPUs: the scheduler says "Insufficient nvidia.com/gpu", so both services wait in the queue.
    test.addNodes(FakeNode.cpu("nogpu-" + suffix(test)));
    KubernetesClient client = test.client();
    String ns = test.namespace();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("first", "modelRef: llama\nresources: {gpu: 1}")).create();
    client.resource(isvc("second", "modelRef: llama\nresources: {gpu: 1}")).create();
    // The queue is cluster-wide: positions are checked for consistency, not fixed numbers.
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(harness.operator.queue().position(ns, "first")).isPositive();
      assertThat(harness.operator.queue().position(ns, "second")).isPositive();
      assertThat(get(client, ns, "first").getMetadata().getFinalizers())
          .containsExactly("inferenceservices.inference.llmkube.dev/finalizer");
    });
    client.resources(InferenceService.class).withName("first").delete();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(get(client, ns, "first")).isNull();
      assertThat(harness.operator.queue().entries()).noneMatch(e -> e.namespace().equals(ns)
          && e.name().equals("first"));
      int second = harness.operator.queue().position(ns, "second");
      assertThat(second).isPositive();
      assertThat(get(client, ns, "second").getStatus().queuePosition()).isEqualTo(second);
    });
  }
}
