package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.isvc;
import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.llmkube.isvc.IntegrationBuilder;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.slo} and {@code spec.endpoint.gateway} on a real apiserver: reported as not installed while the Pyrra
 * and Envoy AI Gateway CRDs are missing, applied (owned by the service) once they exist, removed when turned off, and
 * garbage-collected with the service.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER})
class IntegrationsIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static OperatorHarness harness;

  @BeforeAll
  static void start(ControlPlane controlPlane) {
    harness = OperatorHarness.start(controlPlane, OperatorSettings.defaults()
        .withModelCache(OperatorSettings.ModelCacheSettings.disabled()).toBuilder().pyrraSlo(true).build());
  }

  @AfterAll
  static void stop() {
    if (harness != null) {
      harness.close();
    }
  }

  private static Condition condition(KubernetesClient client, String type) {
    InferenceService isvc = client.resources(InferenceService.class).withName("chat").get();
    return isvc.getStatus() == null ? null : isvc.getStatus().conditions().stream()
        .filter(c -> c.getType().equals(type)).findFirst().orElse(null);
  }

  private static GenericKubernetesResource get(KubernetesClient client, ResourceDefinitionContext kind, String name) {
    return client.genericKubernetesResources(kind).withName(name).get();
  }

  private static void installCrds(KubernetesClient client) throws Exception {
    try (InputStream in = IntegrationsIT.class.getResourceAsStream("/integration-crds/crds.yaml")) {
      List<HasMetadata> crds = client.load(in).items();
      for (HasMetadata crd : crds) {
        client.resource(crd).serverSideApply();
      }
      for (HasMetadata crd : crds) {
        client.apiextensions().v1().customResourceDefinitions().withName(crd.getMetadata().getName())
            .waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
                .anyMatch(x -> "Established".equals(x.getType()) && "True".equals(x.getStatus())), 60,
                TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void objectiveAndGatewayRouteFollowTheServiceAndTheInstalledCrds(KubeTest test) throws Exception {
    KubernetesClient client = test.client();
    assertThat(client.apiextensions().v1().customResourceDefinitions()
        .withName("aigatewayroutes.aigateway.envoyproxy.io").get())
        .as("this test starts without the integration CRDs").isNull();
    client.resource(model("llama", "source: test-org/llama")).create();
    client.resource(isvc("chat", """
        modelRef: llama
        runtime: vllm
        slo: {objective: "99.5"}
        endpoint:
          gateway: {enabled: true, gatewayRef: {name: ai-gw, namespace: gateways}}
        """)).create();

    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(condition(client, "SLOReady")).isNotNull();
      assertThat(condition(client, "SLOReady").getReason()).isEqualTo("PyrraNotInstalled");
      assertThat(condition(client, "GatewayReady").getStatus()).isEqualTo("False");
      assertThat(condition(client, "GatewayReady").getReason()).isEqualTo("GatewayCRDsNotInstalled");
      assertThat(condition(client, "GatewayReady").getMessage()).contains("aigatewayroutes.aigateway.envoyproxy.io");
    });
    assertThat(client.apps().deployments().withName("chat").get()).as("served all the same").isNotNull();

    installCrds(client);
    client.resources(InferenceService.class).withName("chat").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"endpoint\":{\"gateway\":{\"modelName\":\"llama-v2\"}}}}");
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(condition(client, "SLOReady").getStatus()).isEqualTo("True");
      assertThat(condition(client, "GatewayReady").getStatus()).isEqualTo("True");
      InferenceService isvc = client.resources(InferenceService.class).withName("chat").get();
      assertThat(isvc.getStatus().gateway().routeReady()).isTrue();
      assertThat(isvc.getStatus().gateway().modelName()).isEqualTo("llama-v2");
    });
    String uid = client.resources(InferenceService.class).withName("chat").get().getMetadata().getUid();
    GenericKubernetesResource slo = get(client, IntegrationBuilder.SLO, "chat-availability");
    assertThat(slo.getMetadata().getOwnerReferences()).singleElement()
        .satisfies(o -> assertThat(o.getUid()).isEqualTo(uid));
    assertThat(((Map<?, ?>) slo.getAdditionalProperties().get("spec")).get("target")).isEqualTo("99.5");
    GenericKubernetesResource route = get(client, IntegrationBuilder.AI_GATEWAY_ROUTE, "chat");
    assertThat(route.getAdditionalProperties().get("spec").toString()).contains("value=llama-v2", "name=ai-gw");
    assertThat(get(client, IntegrationBuilder.BACKEND, "chat")).isNotNull();
    assertThat(get(client, IntegrationBuilder.AI_SERVICE_BACKEND, "chat")).isNotNull();

    // Turned off: the gateway objects go, the objective stays.
    client.resources(InferenceService.class).withName("chat").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"endpoint\":{\"gateway\":{\"enabled\":false}}}}");
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(get(client, IntegrationBuilder.AI_GATEWAY_ROUTE, "chat")).isNull();
      assertThat(get(client, IntegrationBuilder.BACKEND, "chat")).isNull();
      assertThat(get(client, IntegrationBuilder.AI_SERVICE_BACKEND, "chat")).isNull();
      assertThat(condition(client, "GatewayReady")).isNull();
      assertThat(client.resources(InferenceService.class).withName("chat").get().getStatus().gateway()).isNull();
    });
    assertThat(get(client, IntegrationBuilder.SLO, "chat-availability")).isNotNull();

    // Deleted with the service (garbage collector).
    client.resources(InferenceService.class).withName("chat").delete();
    await().atMost(TIMEOUT).until(() -> get(client, IntegrationBuilder.SLO, "chat-availability") == null);
  }
}
