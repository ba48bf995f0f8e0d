package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.OperatorSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Pyrra and Envoy AI Gateway objects of {@code spec.slo} and {@code spec.endpoint.gateway}, exactly. */
class IntegrationBuilderTest {
  private static final String MODEL = "source: https://example.com/m.gguf\n";
  private static final OperatorSettings PYRRA = OperatorSettings.builder().pyrraSlo(true).build();

  private static String yaml(GenericKubernetesResource r) {
    return Serialization.asYaml(r);
  }

  @Test
  void anAvailabilityObjectiveCountsTheScrapesOfTheServicesPods() {
    GenericKubernetesResource slo = IntegrationBuilder.slo(Plans.plan(
        "modelRef: m\nslo: {objective: \"99.5\"}", MODEL, PYRRA));
    assertThat(yaml(slo)).isEqualTo("""
        ---
        apiVersion: "pyrra.dev/v1alpha1"
        kind: "ServiceLevelObjective"
        metadata:
          labels:
            app: "svc"
            inference.llmkube.dev/service: "svc"
            inference.llmkube.dev/model: "m"
            inference.llmkube.dev/runtime: "llamacpp"
            app.kubernetes.io/managed-by: "modelplane"
          name: "svc-availability"
          namespace: "ns"
        spec:
          target: "99.5"
          window: "28d"
          description: "Share of time the pods of svc answer their metrics scrape"
          indicator:
            bool_gauge:
              metric: "up{namespace=\\"ns\\",pod=~\\"svc-[a-z0-9]+-[a-z0-9]+\\"}"
        """);
  }

  @Test
  void aLatencyObjectiveUsesVllmsHistogramAtTheThresholdBucket() {
    GenericKubernetesResource slo = IntegrationBuilder.slo(Plans.plan("modelRef: m\nruntime: vllm\n"
        + "slo: {name: fast, indicator: latency, objective: \"95\", latencyThreshold: \"0.5\", window: 7d}", MODEL,
        PYRRA));
    assertThat(slo.getMetadata().getName()).isEqualTo("fast");
    assertThat(Serialization.asJson(slo.getAdditionalProperties().get("spec"))).isEqualTo("{\"target\":\"95\","
        + "\"window\":\"7d\",\"description\":\"Share of requests to svc completed within 0.5s\",\"indicator\":"
        + "{\"latency\":{\"success\":{\"metric\":\"vllm:e2e_request_latency_seconds_bucket{namespace=\\\"ns\\\","
        + "pod=~\\\"svc-[a-z0-9]+-[a-z0-9]+\\\",le=\\\"0.5\\\"}\"},\"total\":{\"metric\":"
        + "\"vllm:e2e_request_latency_seconds_count{namespace=\\\"ns\\\",pod=~\\\"svc-[a-z0-9]+-[a-z0-9]+\\\"}\"}}}}");
  }

  @Test
  void noObjectiveWithoutTheFlagOrForAnUnmeasurableIndicator() {
    assertThat(IntegrationBuilder.slo(Plans.plan("modelRef: m\nslo: {objective: \"99\"}", MODEL))).isNull();
    assertThat(IntegrationBuilder.slo(Plans.plan("modelRef: m\nslo: {indicator: latency, objective: \"99\", "
        + "latencyThreshold: \"1\"}", MODEL, PYRRA))).as("llama.cpp has no latency histogram").isNull();
    assertThat(IntegrationBuilder.slo(Plans.plan("modelRef: m", MODEL, PYRRA))).isNull();
  }

  @Test
  void gatewayExposureIsABackendAnAiServiceBackendAndARouteMatchingTheModelName() {
    List<GenericKubernetesResource> objects = IntegrationBuilder.gateway(Plans.plan("""
        modelRef: m
        endpoint:
          port: 9000
          gateway: {enabled: true, gatewayRef: {name: ai-gw, namespace: gateways}, modelName: llama-3-8b}
        """, MODEL));
    assertThat(objects).extracting(GenericKubernetesResource::getKind)
        .containsExactly("Backend", "AIServiceBackend", "AIGatewayRoute");
    assertThat(objects).allSatisfy(o -> {
      assertThat(o.getMetadata().getName()).isEqualTo("svc");
      assertThat(o.getMetadata().getNamespace()).isEqualTo("ns");
      assertThat(o.getMetadata().getLabels()).containsEntry("inference.llmkube.dev/service", "svc");
    });
    assertThat(yaml(objects.get(0))).contains("""
        spec:
          endpoints:
          - fqdn:
              hostname: "svc.ns.svc.cluster.local"
              port: 9000
        """);
    assertThat(yaml(objects.get(1))).contains("""
        spec:
          schema:
            name: "OpenAI"
          backendRef:
            name: "svc"
            kind: "Backend"
            group: "gateway.envoyproxy.io"
        """);
    assertThat(yaml(objects.get(2))).contains("""
        spec:
          parentRefs:
          - name: "ai-gw"
            namespace: "gateways"
            kind: "Gateway"
            group: "gateway.networking.k8s.io"
          schema:
            name: "OpenAI"
          rules:
          - matches:
            - headers:
              - type: "Exact"
                name: "x-ai-eg-model"
                value: "llama-3-8b"
            backendRefs:
            - name: "svc"
        """);
  }

  @Test
  void theRouteDefaultsToTheModelRefAndNothingIsMadeWhenDisabled() {
    GenericKubernetesResource route = IntegrationBuilder.gateway(Plans.plan(
        "modelRef: m\nendpoint: {gateway: {enabled: true, gatewayRef: {name: g}}}", MODEL)).get(2);
    assertThat(yaml(route)).contains("value: \"m\"").doesNotContain("namespace: \"gateways\"");
    assertThat(IntegrationBuilder.gateway(Plans.plan(
        "modelRef: m\nendpoint: {gateway: {enabled: false, gatewayRef: {name: g}}}", MODEL))).isEmpty();
    assertThat(IntegrationBuilder.modelName("svc", TestObjectsAccess.spec("modelRef: \"\""))).isEqualTo("svc");
  }

  @Test
  void renderShowsTheIntegrationObjectsAfterTheServicesOwn() {
    IsvcObjects objects = IsvcObjects.build(Plans.plan("modelRef: m\nslo: {objective: \"99\"}\n"
        + "endpoint: {gateway: {enabled: true, gatewayRef: {name: g}}}", MODEL, PYRRA), null);
    assertThat(objects.all()).extracting(o -> o.getKind()).containsExactly("PersistentVolumeClaim", "Deployment",
        "Service",
        "ServiceLevelObjective", "Backend", "AIServiceBackend", "AIGatewayRoute");
  }

  /** A spec from YAML. */
  private static final class TestObjectsAccess {
    static dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec spec(String yaml) {
      return dev.modelplane.operator.TestObjects.isvc(yaml).getSpec();
    }
  }
}
