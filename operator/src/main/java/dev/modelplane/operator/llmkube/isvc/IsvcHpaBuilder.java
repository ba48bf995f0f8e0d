package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.AutoscalingMetric;
import dev.modelplane.api.llmkube.v1alpha1.AutoscalingSpec;
import dev.modelplane.api.llmkube.v1alpha1.MetricSourceType;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpec;
import io.fabric8.kubernetes.api.model.autoscaling.v2.MetricSpecBuilder;
import java.util.ArrayList;
import java.util.List;

/**
 * The autoscaling/v2 HPA of an InferenceService, scaling its Deployment between {@code minReplicas} (1 by default)
 * and {@code maxReplicas}. Without {@code metrics} it scales on the runtime's default Pods metric at an average of 2
 * per pod; otherwise Pods metrics use {@code targetAverageValue} and Resource metrics
 * {@code targetAverageUtilization}.
 */
public final class IsvcHpaBuilder {
  /** Per-pod average of the default metric. */
  public static final String DEFAULT_TARGET = "2";

  private IsvcHpaBuilder() {
  }

  public static HorizontalPodAutoscaler build(ServingPlan plan) {
    AutoscalingSpec autoscaling = plan.spec().autoscaling();
    return new HorizontalPodAutoscalerBuilder()
        .withNewMetadata()
          .withName(plan.name())
          .withNamespace(plan.namespace())
          .withLabels(plan.labels())
        .endMetadata()
        .withNewSpec()
          .withNewScaleTargetRef().withApiVersion("apps/v1").withKind("Deployment").withName(plan.name())
          .endScaleTargetRef()
          .withMinReplicas(autoscaling.minReplicas() == null ? 1 : autoscaling.minReplicas())
          .withMaxReplicas(autoscaling.maxReplicas())
          .withMetrics(metrics(plan, autoscaling))
        .endSpec()
        .build();
  }

  static List<MetricSpec> metrics(ServingPlan plan, AutoscalingSpec autoscaling) {
    List<MetricSpec> metrics = new ArrayList<>();
    if (autoscaling.metrics() == null || autoscaling.metrics().isEmpty()) {
      metrics.add(pods(plan.renderer().defaultHpaMetric(), DEFAULT_TARGET));
      return metrics;
    }
    for (AutoscalingMetric m : autoscaling.metrics()) {
      if (m.type() == MetricSourceType.RESOURCE) {
        metrics.add(new MetricSpecBuilder().withType("Resource").withNewResource().withName(m.name())
            .withNewTarget().withType("Utilization").withAverageUtilization(m.targetAverageUtilization())
            .endTarget().endResource().build());
      } else {
        metrics.add(pods(m.name(), m.targetAverageValue()));
      }
    }
    return metrics;
  }

  private static MetricSpec pods(String name, String averageValue) {
    return new MetricSpecBuilder().withType("Pods").withNewPods()
        .withNewMetric().withName(name).endMetric()
        .withNewTarget().withType("AverageValue").withAverageValue(new Quantity(averageValue)).endTarget()
        .endPods().build();
  }
}
