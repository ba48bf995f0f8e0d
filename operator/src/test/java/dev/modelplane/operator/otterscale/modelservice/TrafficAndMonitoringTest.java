package dev.modelplane.operator.otterscale.modelservice;

import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.SETTINGS;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.aggregated;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.disaggregated;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.find;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.has;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.operator.ModelServiceSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class TrafficAndMonitoringTest {
  private static final String BASE = """
      model: {name: Qwen/Qwen3-0.6B, image: r/q:1}
      engine: {port: 8080}
      accelerator: {type: nvidia}
      decode: {}
      """;

  private static Map<String, Object> spec(ModelServicePlan plan, String kind, String name) {
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) ((GenericKubernetesResource) find(plan, kind, name))
        .getAdditionalProperties().get("spec");
    return spec;
  }

  private static ModelServiceSettings settings(String gateway, ModelServiceSettings.Provider provider,
      boolean auth) {
    return new ModelServiceSettings(null, null, null, null, gateway, "infra", provider, auth, null);
  }

  @Test
  void theDefaultPoolSelectsEveryServingPodAndFailsClosedOnThePickersDefaultPort() {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", BASE), SETTINGS);
    GenericKubernetesResource pool = (GenericKubernetesResource) find(plan, "InferencePool", "qwen");
    assertThat(pool.getApiVersion()).isEqualTo("inference.networking.k8s.io/v1");
    assertThat(pool.getMetadata().getAnnotations()).containsEntry("modelplane.dev/served-models", "Qwen/Qwen3-0.6B");
    Map<String, Object> spec = spec(plan, "InferencePool", "qwen");
    assertThat(spec).containsEntry("selector", Map.of("matchLabels", Map.of("app.kubernetes.io/name", "qwen",
        "app.kubernetes.io/part-of", "otterscale-system", "app.kubernetes.io/managed-by", "model-operator",
        "llm-d.ai/inferenceServing", "true", "llm-d.ai/model", "qwen")));
    assertThat(spec).containsEntry("targetPorts", List.of(Map.of("number", 8080)));
    assertThat(spec).containsEntry("endpointPickerRef", Map.of("group", "", "kind", "Service", "name", "qwen-epp",
        "port", Map.of("number", 9002), "failureMode", "FailClose"));
    assertThat(plan.unwanted()).contains(new ModelServicePlan.ObjectRef("inference.networking.k8s.io/v1",
        "InferencePool", "qwen-epp", false));
  }

  @ParameterizedTest
  @CsvSource({"FailOpen,FailOpen", "FailClose,FailClose"})
  void anExplicitPoolUsesThePickersPortAndFailureMode(String mode, String expected) {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", BASE + """
        inferencePool: {endpointPicker: {port: 9100, failureMode: %s}}
        """.formatted(mode)), SETTINGS);
    assertThat(spec(plan, "InferencePool", "qwen")).extracting("endpointPickerRef").isEqualTo(Map.of("group", "",
        "kind", "Service", "name", "qwen-epp", "port", Map.of("number", 9100), "failureMode", expected));
  }

  @Test
  void theRouteMatchesTheServiceNameAndTheModelNameAndTargetsThePool() {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", BASE + """
        httpRoute: {gatewayRef: {name: edge, namespace: gateways}, hostnames: [llm.example.com]}
        """), SETTINGS);
    Map<String, Object> spec = spec(plan, "HTTPRoute", "qwen");
    assertThat(spec).containsEntry("parentRefs", List.of(Map.of("name", "edge", "namespace", "gateways")));
    assertThat(spec).containsEntry("hostnames", List.of("llm.example.com"));
    @SuppressWarnings("unchecked")
    Map<String, Object> rule = ((List<Map<String, Object>>) spec.get("rules")).get(0);
    @SuppressWarnings("unchecked")
    List<Object> headers = ((List<Map<String, Object>>) rule.get("matches")).stream()
        .map(m -> m.get("headers")).toList();
    assertThat(headers).containsExactly(
        List.of(Map.of("type", "Exact", "name", "OtterScale-Model-Name", "value", "qwen")),
        List.of(Map.of("type", "Exact", "name", "OtterScale-Model-Name", "value", "Qwen/Qwen3-0.6B")),
        List.of(Map.of("type", "Exact", "name", "X-Gateway-Model-Name", "value", "Qwen/Qwen3-0.6B")));
    assertThat(rule.get("backendRefs")).isEqualTo(List.of(Map.of("group", "inference.networking.k8s.io",
        "kind", "InferencePool", "name", "qwen")));
    // A Gateway in the ModelService's own namespace is referred to without one.
    ModelServicePlan local = ModelServicePlanner.plan(ms("qwen", BASE + """
        httpRoute: {gatewayRef: {name: edge, namespace: team}}
        """), SETTINGS);
    assertThat(spec(local, "HTTPRoute", "qwen")).containsEntry("parentRefs", List.of(Map.of("name", "edge")))
        .doesNotContainKey("hostnames");
  }

  @Test
  void withoutARouteInTheSpecTheOperatorsDefaultGatewayIsUsedInItsConfiguredNamespaceOrNone() {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", BASE), settings("shared-gw",
        ModelServiceSettings.Provider.ISTIO, true));
    assertThat(spec(plan, "HTTPRoute", "qwen")).containsEntry("parentRefs", List.of(Map.of(
        "group", "gateway.networking.k8s.io", "kind", "Gateway", "name", "shared-gw", "namespace", "infra")));
    assertThat(spec(ModelServicePlanner.plan(ms("qwen", BASE), SETTINGS), "HTTPRoute", "qwen"))
        .extracting("parentRefs").isEqualTo(List.of(Map.of("group", "gateway.networking.k8s.io", "kind", "Gateway",
            "name", "otterscale-llm-d-infra-inference-gateway", "namespace", "llm-d")));
    ModelServicePlan none = ModelServicePlanner.plan(ms("qwen", BASE), settings("",
        ModelServiceSettings.Provider.ISTIO, true));
    assertThat(has(none, "HTTPRoute", "qwen")).isFalse();
    assertThat(none.unwanted()).contains(new ModelServicePlan.ObjectRef("gateway.networking.k8s.io/v1",
        "HTTPRoute", "qwen", false));
  }

  @ParameterizedTest
  @CsvSource({"ISTIO,true,true", "GKE,false,false", "NONE,false,true"})
  void theProviderDecidesTheDestinationRuleAndWhetherPrometheusPresentsAToken(ModelServiceSettings.Provider provider,
      boolean destinationRule, boolean token) {
    ModelServicePlan plan = ModelServicePlanner.plan(ms("qwen", BASE + """
        inferencePool: {endpointPicker: {}}
        monitoring: {podMonitor: {enabled: true}}
        """), settings("gw", provider, true));
    assertThat(has(plan, "DestinationRule", "qwen-epp")).isEqualTo(destinationRule);
    if (destinationRule) {
      assertThat(spec(plan, "DestinationRule", "qwen-epp")).containsEntry("host", "qwen-epp.team.svc.cluster.local")
          .containsEntry("trafficPolicy", Map.of("tls", Map.of("mode", "SIMPLE", "insecureSkipVerify", true)));
    }
    assertThat(plan.owned()).noneMatch(o -> "Secret".equals(o.getKind()));
    assertThat(plan.clusterScoped()).hasSize(1);
    // Prometheus presents its own service-account token, except on GKE (where upstream has no token Secret).
    @SuppressWarnings("unchecked")
    Map<String, Object> endpoint = ((List<Map<String, Object>>) spec(plan, "ServiceMonitor", "qwen-epp")
        .get("endpoints")).get(0);
    assertThat(endpoint.containsKey("authorization")).isFalse();
    assertThat(endpoint.get("bearerTokenFile")).isEqualTo(token
        ? "/var/run/secrets/kubernetes.io/serviceaccount/token" : null);
    assertThat(endpoint).containsEntry("port", "http-metrics").containsEntry("interval", "30s");
  }

  @Test
  void podMonitorsAreOnUnlessDisabledAndAnEmptyPodMonitorDisablesThemAsUpstream() {
    ModelServicePlan pd = ModelServicePlanner.plan(disaggregated(), SETTINGS);
    assertThat(has(pd, "PodMonitor", "qwen-decode")).isTrue();
    assertThat(has(pd, "PodMonitor", "qwen-prefill")).isTrue();
    Map<String, Object> spec = spec(pd, "PodMonitor", "qwen-prefill");
    assertThat(spec).extracting("selector").isEqualTo(Map.of("matchLabels", new ModelServiceNames("qwen", "team")
        .servingSelector("prefill")));
    assertThat(spec).extracting("podMetricsEndpoints").asList().singleElement().isEqualTo(Map.of("port", "http",
        "path", "/metrics", "interval", "30s", "relabelings", List.of(Map.of("action", "replace", "sourceLabels",
            List.of("__meta_kubernetes_pod_label_app_kubernetes_io_name"), "targetLabel", "model_service"))));
    assertThat(has(pd, "ServiceMonitor", "qwen-epp")).isFalse();
    ModelServicePlan aggregated = ModelServicePlanner.plan(aggregated(), SETTINGS);
    assertThat(has(aggregated, "PodMonitor", "qwen-prefill")).isFalse();
    assertThat(aggregated.unwanted()).contains(new ModelServicePlan.ObjectRef("monitoring.coreos.com/v1",
        "PodMonitor", "qwen-prefill", false), new ModelServicePlan.ObjectRef("apps/v1", "Deployment",
        "qwen-prefill", false));
    ModelServicePlan off = ModelServicePlanner.plan(ms("qwen", BASE + "monitoring: {podMonitor: {}}\n"), SETTINGS);
    assertThat(has(off, "PodMonitor", "qwen-decode")).isFalse();
    ModelServicePlan custom = ModelServicePlanner.plan(ms("qwen", BASE
        + "monitoring: {podMonitor: {enabled: true, portName: metrics, path: /m, interval: 10s}}\n"), SETTINGS);
    assertThat(spec(custom, "PodMonitor", "qwen-decode")).extracting("podMetricsEndpoints").asList().singleElement()
        .extracting("port", "path", "interval").containsExactly("metrics", "/m", "10s");
  }

  @Test
  void everyNamespacedObjectIsInTheModelServicesNamespace() {
    ModelServicePlan plan = ModelServicePlanner.plan(disaggregated(), SETTINGS);
    assertThat(plan.owned()).allSatisfy(o -> assertThat(o.getMetadata().getNamespace()).isEqualTo("team"));
    assertThat(plan.owned()).extracting(o -> o.getKind() + "/" + o.getMetadata().getName()).containsExactly(
        "Deployment/qwen-decode", "Deployment/qwen-prefill", "ServiceAccount/qwen-epp", "ConfigMap/qwen-epp-config",
        "Deployment/qwen-epp", "Service/qwen-epp", "Role/qwen-epp", "RoleBinding/qwen-epp", "InferencePool/qwen",
        "HTTPRoute/qwen", "DestinationRule/qwen-epp", "PodMonitor/qwen-decode", "PodMonitor/qwen-prefill");
  }
}
