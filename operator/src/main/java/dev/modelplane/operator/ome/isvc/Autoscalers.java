package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.KedaConfig;
import dev.modelplane.api.ome.v1beta1.ScaleMetric;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The autoscaler of a raw-deployment component, by the annotation {@code ome.io/autoscalerClass}: a
 * HorizontalPodAutoscaler N ({@code hpa}), a KEDA ScaledObject {@code scaledobject-<last 50 of N>} ({@code keda})
 * with one Prometheus trigger, or none ({@code external}). Without the annotation, {@code kedaConfig.enableKeda:
 * true} (the component's, else the InferenceService's) chooses KEDA, and an HPA is the default; OME ignores
 * {@code enableKeda}. KEDA settings come from the component's own {@code kedaConfig}, else the InferenceService's
 * (OME reads only the latter), with annotations {@code autoscaling.keda.sh/*} taking precedence.
 */
final class Autoscalers {
  static final String CLASS = "ome.io/autoscalerClass";
  static final String TARGET_UTILIZATION = "ome.io/targetUtilizationPercentage";
  static final String KEDA_SERVER = "autoscaling.keda.sh/prometheus.serverAddress";
  static final String KEDA_QUERY = "autoscaling.keda.sh/prometheus.query";
  static final String KEDA_THRESHOLD = "autoscaling.keda.sh/threshold";
  static final String KEDA_OPERATOR = "autoscaling.keda.sh/operator";
  static final String DEFAULT_PROMETHEUS = "http://prometheus-operated.monitoring.svc.cluster.local:9090";

  private Autoscalers() {
  }

  static List<HasMetadata> build(ComponentPlan plan) {
    String autoscaler = autoscalerClass(plan);
    if ("external".equals(autoscaler)) {
      return List.of();
    }
    if ("keda".equals(autoscaler)) {
      return List.of(scaledObject(plan));
    }
    ScaleMetric metric = plan.settings().getScaleMetric();
    String resource = metric == ScaleMetric.MEMORY ? "memory" : "cpu";
    int utilization = 80;
    String fromAnnotation = annotation(plan, TARGET_UTILIZATION);
    if (fromAnnotation != null && fromAnnotation.strip().matches("\\d+")) {
      utilization = Integer.parseInt(fromAnnotation.strip());
    } else if (plan.settings().getScaleTarget() != null) {
      utilization = plan.settings().getScaleTarget();
    }
    return List.of(RawWorkloads.hpa(plan, resource, utilization));
  }

  /** {@code hpa}, {@code keda} or {@code external} (or an unknown annotation value, read as {@code hpa}). */
  static String autoscalerClass(ComponentPlan plan) {
    String annotated = annotation(plan, CLASS);
    if (annotated != null && !annotated.isBlank()) {
      return annotated.strip();
    }
    KedaConfig keda = plan.keda();
    return keda != null && Boolean.TRUE.equals(keda.enableKeda()) ? "keda" : "hpa";
  }

  static String scaledObjectName(String name) {
    return "scaledobject-" + (name.length() > 50 ? name.substring(name.length() - 50) : name);
  }

  private static GenericKubernetesResource scaledObject(ComponentPlan plan) {
    KedaConfig keda = plan.keda();
    Map<String, Object> metadata = new LinkedHashMap<>();
    metadata.put("serverAddress", first(annotation(plan, KEDA_SERVER), keda == null ? null : keda.promServerAddress(),
        DEFAULT_PROMETHEUS));
    metadata.put("metricName", plan.settings().getScaleMetric() == null ? "tps"
        : plan.settings().getScaleMetric().toString().toLowerCase(Locale.ROOT));
    String custom = keda == null ? null : keda.customPromQuery();
    metadata.put("query", first(annotation(plan, KEDA_QUERY), custom == null || custom.isBlank() ? null
        : custom.replace("%s", plan.name()), defaultQuery(plan)));
    metadata.put("threshold", first(annotation(plan, KEDA_THRESHOLD), keda == null ? null
        : keda.scalingThreshold(), "10"));
    metadata.put("operator", first(annotation(plan, KEDA_OPERATOR), keda == null || keda.scalingOperator() == null
        ? null : keda.scalingOperator().toString(), "LessThanOrEqual"));
    Map<String, Object> trigger = new LinkedHashMap<>();
    trigger.put("type", "prometheus");
    trigger.put("metadata", metadata);
    if (keda != null && keda.authenticationRef() != null) {
      String kind = keda.authenticationRef().kind() == null ? "TriggerAuthentication"
          : keda.authenticationRef().kind().toString();
      trigger.put("authenticationRef", Map.of("name", keda.authenticationRef().name(), "kind", kind));
      if (keda.authModes() != null && !keda.authModes().isBlank()) {
        metadata.put("authModes", keda.authModes());
      }
    }
    int min = Math.max(1, plan.minReplicas());
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("scaleTargetRef", Map.of("apiVersion", "apps/v1", "kind", "Deployment", "name", plan.name()));
    spec.put("minReplicaCount", min);
    spec.put("maxReplicaCount", Math.max(min, plan.maxReplicas()));
    spec.put("triggers", List.of(trigger));
    return new GenericKubernetesResourceBuilder().withApiVersion("keda.sh/v1alpha1").withKind("ScaledObject")
        .withNewMetadata().withName(scaledObjectName(plan.name())).withLabels(plan.labels()).endMetadata()
        .addToAdditionalProperties("spec", spec).build();
  }

  /** Generated tokens per second across the component's pods, the load signal vLLM exports. */
  private static String defaultQuery(ComponentPlan plan) {
    return "sum(rate(vllm:generation_tokens_total{pod=~\"" + plan.name() + "-.*\"}[1m]))";
  }

  private static String annotation(ComponentPlan plan, String key) {
    String own = plan.annotations().get(key);
    return own != null ? own : plan.serviceAnnotations().get(key);
  }

  private static String first(String... values) {
    for (String v : values) {
      if (v != null && !v.isBlank()) {
        return v;
      }
    }
    return null;
  }
}
