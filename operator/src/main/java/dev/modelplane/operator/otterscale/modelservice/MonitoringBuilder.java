package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.api.otterscale.v1alpha1.PodMonitorSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prometheus Operator objects of a ModelService: a PodMonitor per serving role (on unless
 * {@code spec.monitoring.podMonitor.enabled} is false — so {@code podMonitor: {}}, whose {@code enabled} defaults to
 * false, turns them off, as upstream) and, with {@code spec.inferencePool} and monitoring explicitly enabled, a
 * ServiceMonitor of the picker, which presents Prometheus's own service-account token when metrics need one (the
 * picker checks it with a TokenReview and allows it when that account may {@code get} the non-resource URL
 * {@code /metrics}, as kube-prometheus grants Prometheus). OtterScale has Prometheus present a token Secret of the
 * picker's account instead, which the operator would have to create.
 */
final class MonitoringBuilder {
  static final String API = "monitoring.coreos.com/v1";

  private MonitoringBuilder() {
  }

  static boolean podMonitorsWanted(ModelService ms) {
    PodMonitorSpec pm = ms.getSpec().monitoring() == null ? null : ms.getSpec().monitoring().podMonitor();
    return pm == null || Boolean.TRUE.equals(pm.enabled());
  }

  static boolean serviceMonitorWanted(ModelService ms) {
    PodMonitorSpec pm = ms.getSpec().monitoring() == null ? null : ms.getSpec().monitoring().podMonitor();
    return ms.getSpec().inferencePool() != null && pm != null && Boolean.TRUE.equals(pm.enabled());
  }

  static GenericKubernetesResource podMonitor(ModelService ms, ModelServiceNames names, String role) {
    PodMonitorSpec pm = ms.getSpec().monitoring() == null ? null : ms.getSpec().monitoring().podMonitor();
    Map<String, Object> endpoint = new LinkedHashMap<>();
    endpoint.put("port", text(pm == null ? null : pm.portName(), "http"));
    endpoint.put("path", text(pm == null ? null : pm.path(), "/metrics"));
    endpoint.put("interval", text(pm == null ? null : pm.interval(), "30s"));
    endpoint.put("relabelings", List.of(Map.of("action", "replace",
        "sourceLabels", List.of("__meta_kubernetes_pod_label_app_kubernetes_io_name"), "targetLabel",
        "model_service")));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("selector", Map.of("matchLabels", names.servingSelector(role)));
    spec.put("podMetricsEndpoints", List.of(endpoint));
    return TrafficBuilder.resource(API, "PodMonitor", names.serving(role), names,
        ModelServiceNames.standard(names.service(), ModelServiceNames.component(role)), spec);
  }

  /** Where Prometheus's pod has its own service-account token. */
  static final String PROMETHEUS_TOKEN_FILE = "/var/run/secrets/kubernetes.io/serviceaccount/token";

  /** The picker's ServiceMonitor; {@code withToken} has Prometheus present its own token. */
  static GenericKubernetesResource serviceMonitor(ModelServiceNames names, boolean withToken) {
    Map<String, Object> endpoint = new LinkedHashMap<>();
    endpoint.put("port", "http-metrics");
    endpoint.put("interval", "30s");
    if (withToken) {
      endpoint.put("bearerTokenFile", PROMETHEUS_TOKEN_FILE);
    }
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("selector", Map.of("matchLabels", names.pickerSelector()));
    spec.put("endpoints", List.of(endpoint));
    return TrafficBuilder.resource(API, "ServiceMonitor", names.picker(), names, names.pickerLabels(), spec);
  }

  private static String text(String value, String fallback) {
    return value == null || value.isEmpty() ? fallback : value;
  }
}
