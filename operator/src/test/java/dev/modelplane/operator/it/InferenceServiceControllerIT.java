package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.isvc;
import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.Edits;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The InferenceService and Model controllers on a real kube-apiserver with the garbage collector. */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER})
class InferenceServiceControllerIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
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

  private static InferenceService get(KubernetesClient client, String name) {
    return client.resources(InferenceService.class).withName(name).get();
  }

  private static Condition condition(InferenceService isvc, String type) {
    assertThat(isvc).isNotNull();
    assertThat(isvc.getStatus()).as("status").isNotNull();
    return isvc.getStatus().conditions().stream().filter(c -> c.getType().equals(type)).findFirst().orElseThrow();
  }

  @Test
  void modelAndServiceBecomeDeploymentServiceAndHpaWithStatus(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", """
        modelRef: llama
        runtime: vllm
        autoscaling: {maxReplicas: 3}
        """)).create();

    await().atMost(TIMEOUT).untilAsserted(() -> {
      Deployment d = client.apps().deployments().withName("chat").get();
      assertThat(d).isNotNull();
      assertThat(d.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
        assertThat(o.getKind()).isEqualTo("InferenceService");
        assertThat(o.getUid()).isEqualTo(get(client, "chat").getMetadata().getUid());
        assertThat(o.getController()).as("a controller reference, as LLMKube sets it").isTrue();
        assertThat(o.getBlockOwnerDeletion()).isTrue();
      });
      assertThat(client.services().withName("chat").get().getMetadata().getOwnerReferences()).singleElement()
          .satisfies(o -> assertThat(o.getController()).isTrue());
      assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("chat").get().getMetadata()
          .getOwnerReferences()).singleElement().satisfies(o -> assertThat(o.getController()).isTrue());
      assertThat(d.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs()).startsWith(
          "test-org/llama-gguf", "--port", "8000");
      assertThat(client.services().withName("chat").get().getSpec().getPorts().getFirst().getTargetPort()
          .getIntVal()).isEqualTo(8000);
      assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("chat").get().getSpec()
          .getMetrics().getFirst().getPods().getMetric().getName()).isEqualTo("vllm:num_requests_running");
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, "chat");
      assertThat(isvc.getStatus()).isNotNull();
      assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.CREATING);
      assertThat(isvc.getStatus().modelReady()).isTrue();
      assertThat(isvc.getStatus().endpoint()).isEqualTo(
          "http://chat." + test.namespace() + ".svc.cluster.local:8080/v1/chat/completions");
      assertThat(isvc.getStatus().selector()).isEqualTo("app=chat,inference.llmkube.dev/service=chat");
      assertThat(isvc.getStatus().effectivePriority()).isEqualTo(10000);
      assertThat(condition(isvc, "Degraded").getStatus()).isEqualTo("False");
      assertThat(condition(isvc, "Progressing").getReason()).isEqualTo("Creating");
    });
    assertThat(client.resources(dev.modelplane.api.llmkube.v1alpha1.Model.class).withName("llama").get()
        .getStatus().phase()).isEqualTo(ModelPhase.READY);
  }

  @Test
  void aSpecChangeRollsOutAndConditionsKeepTheirTransitionTime(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", "modelRef: llama\ncontextSize: 2048")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, "chat");
      assertThat(isvc.getStatus()).isNotNull();
      assertThat(condition(isvc, "Available").getObservedGeneration()).isEqualTo(1L);
      assertThat(client.apps().deployments().withName("chat").get()).isNotNull();
    });
    InferenceService before = get(client, "chat");
    String availableSince = condition(before, "Available").getLastTransitionTime();
    String progressingSince = condition(before, "Progressing").getLastTransitionTime();

    Edits.onLatest(client.resources(InferenceService.class).withName("chat"), i -> {
      i.getMetadata().setResourceVersion(null);
      return isvc("chat", "modelRef: llama\ncontextSize: 4096");
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Deployment d = client.apps().deployments().withName("chat").get();
      assertThat(d.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
          .containsSequence("--ctx-size", "4096");
      InferenceService isvc = get(client, "chat");
      assertThat(condition(isvc, "Available").getObservedGeneration()).isEqualTo(2L);
      assertThat(condition(isvc, "Available").getLastTransitionTime()).isEqualTo(availableSince);
      assertThat(condition(isvc, "Progressing").getLastTransitionTime()).isEqualTo(progressingSince);
    });
  }

  @Test
  void deletingTheServiceRemovesItsChildren(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", "modelRef: llama\nautoscaling: {maxReplicas: 2}")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.apps().deployments().withName("chat").get()).isNotNull();
      assertThat(client.services().withName("chat").get()).isNotNull();
      assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("chat").get()).isNotNull();
    });
    client.resources(InferenceService.class).withName("chat").delete();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(get(client, "chat")).isNull();
      assertThat(client.apps().deployments().withName("chat").get()).isNull();
      assertThat(client.services().withName("chat").get()).isNull();
      assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("chat").get()).isNull();
    });
  }

  @Test
  void aMissingModelFailsAndAModelThatIsNotReadyKeepsItPending(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(isvc("chat", "modelRef: llama")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, "chat");
      assertThat(isvc.getStatus()).isNotNull();
      assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.FAILED);
      assertThat(condition(isvc, "Degraded").getReason()).isEqualTo("ModelNotFound");
      assertThat(condition(isvc, "Degraded").getMessage())
          .isEqualTo("spec.modelRef: Model llama not found in namespace " + test.namespace());
    });
    assertThat(client.apps().deployments().withName("chat").get()).isNull();

    client.resource(model("llama", "source: pvc://not-yet/llama.gguf")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, "chat");
      assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.PENDING);
      assertThat(condition(isvc, "Progressing").getMessage())
          .isEqualTo("Waiting for Model llama to be Ready (phase Pending)");
      assertThat(condition(isvc, "Degraded").getStatus()).isEqualTo("False");
    });
    assertThat(client.apps().deployments().withName("chat").get()).isNull();
  }

  @Test
  void anHpaOwnedReplicaCountSurvivesReconciles(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", "modelRef: llama\nautoscaling: {minReplicas: 1, maxReplicas: 5}")).create();
    await().atMost(TIMEOUT).until(() -> client.apps().deployments().withName("chat").get() != null);
    client.apps().deployments().withName("chat").scale(3);

    Edits.onLatest(client.resources(InferenceService.class).withName("chat"), i -> {
      i.getMetadata().setResourceVersion(null);
      return isvc("chat", "modelRef: llama\nautoscaling: {minReplicas: 1, maxReplicas: 5}\npodLabels: {team: a}");
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Deployment d = client.apps().deployments().withName("chat").get();
      assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("team", "a");
      assertThat(d.getSpec().getReplicas()).isEqualTo(3);
      assertThat(get(client, "chat").getStatus().desiredReplicas()).isEqualTo(3);
    });
  }

  @Test
  void aSemanticallyWrongSpecGetsAConditionAndOneWarningEventNotAHotLoop(KubeTest test) throws Exception {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", """
        modelRef: llama
        runtime: vllm
        vllmConfig: {speculative: {enabled: true}}
        tgiConfig: {dtype: float16}
        """)).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, "chat");
      Condition degraded = condition(isvc, "Degraded");
      assertThat(degraded.getStatus()).isEqualTo("True");
      assertThat(degraded.getMessage()).contains("spec.tgiConfig: ignored with runtime vllm")
          .contains("spec.vllmConfig.speculative.model: required when speculative decoding is enabled");
      assertThat(degraded.getReason()).isEqualTo("IgnoredField");
      assertThat(client.apps().deployments().withName("chat").get()).isNotNull();
      assertThat(warnings(client, "chat")).hasSize(2);
      // settled: the controller-manager has made the pod and the status reports it
      assertThat(isvc.getStatus().replicas()).isEqualTo(1);
    });
    String statusVersion = get(client, "chat").getMetadata().getResourceVersion();
    String deploymentVersion = client.apps().deployments().withName("chat").get().getMetadata()
        .getResourceVersion();
    Thread.sleep(5_000);
    assertThat(get(client, "chat").getMetadata().getResourceVersion()).isEqualTo(statusVersion);
    assertThat(client.apps().deployments().withName("chat").get().getMetadata().getResourceVersion())
        .isEqualTo(deploymentVersion);
    assertThat(warnings(client, "chat")).hasSize(2);
  }

  private static java.util.List<io.fabric8.kubernetes.api.model.Event> warnings(KubernetesClient client,
      String name) {
    return client.v1().events().list().getItems().stream()
        .filter(e -> "Warning".equals(e.getType()) && name.equals(e.getInvolvedObject().getName())
            && "InferenceService".equals(e.getInvolvedObject().getKind()))
        .toList();
  }

  @Test
  void suspendHoldsZeroPodsAndLiftingItRestoresReplicas(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: test-org/llama-gguf")).create();
    client.resource(isvc("chat", "modelRef: llama\nreplicas: 2\nsuspend: true\nautoscaling: {maxReplicas: 3}"))
        .create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(client, "chat");
      assertThat(condition(isvc, "Available").getReason()).isEqualTo("Suspended");
      assertThat(isvc.getStatus().phase()).isEqualTo(InferenceServicePhase.SUSPENDED);
      assertThat(isvc.getStatus().desiredReplicas()).isZero();
      Deployment deployment = client.apps().deployments().withName("chat").get();
      assertThat(deployment).as("deployment").isNotNull(); // status can say Suspended before the Deployment exists
      assertThat(deployment.getSpec().getReplicas()).isZero();
    });
    assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("chat").get()).isNull();
    Edits.onLatest(client.resources(InferenceService.class).withName("chat"), i -> {
      i.getMetadata().setResourceVersion(null);
      return isvc("chat", "modelRef: llama\nreplicas: 2\nsuspend: false\nautoscaling: {maxReplicas: 3}");
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Deployment deployment = client.apps().deployments().withName("chat").get();
      assertThat(deployment).as("deployment").isNotNull();
      assertThat(deployment.getSpec().getReplicas()).isEqualTo(2);
      assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("chat").get()).isNotNull();
      assertThat(get(client, "chat").getStatus().phase()).isNotEqualTo(InferenceServicePhase.SUSPENDED);
    });
  }

  @Test
  void aDraftModelIsWaitedForAndAMissingCacheClaimFails(KubeTest test) {
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: pvc://store/llama.gguf")).create();
    client.resource(isvc("spec", """
        modelRef: llama
        speculativeDecoding: {type: draft, draftModelRef: tiny}
        """)).create();
    client.resource(isvc("cached", "modelRef: llama\nmodelCache: {claimName: nowhere}")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService spec = get(client, "spec");
      assertThat(condition(spec, "Degraded").getMessage())
          .isEqualTo("spec.speculativeDecoding.draftModelRef: Model tiny not found in namespace " + test.namespace());
      InferenceService cached = get(client, "cached");
      assertThat(cached.getStatus().phase()).isIn(InferenceServicePhase.FAILED, InferenceServicePhase.PENDING);
      assertThat(condition(cached, "Degraded").getMessage()).contains(
          "spec.modelCache.claimName: PersistentVolumeClaim nowhere does not exist");
    });
    client.resource(model("tiny", "source: pvc://store/tiny.gguf")).create();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService spec = get(client, "spec");
      assertThat(spec.getStatus().phase()).isEqualTo(InferenceServicePhase.PENDING);
      assertThat(condition(spec, "Progressing").getMessage())
          .isEqualTo("Waiting for Model llama to be Ready (phase Pending)");
    });
  }
}
