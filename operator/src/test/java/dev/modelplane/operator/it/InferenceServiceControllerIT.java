package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.isvc;
import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServicePhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.controlplane.ControlPlane;
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
        assertThat(o.getController()).isTrue();
      });
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
}
