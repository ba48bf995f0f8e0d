package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.ServiceType;
import dev.modelplane.operator.common.EnumValues;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/**
 * The Service in front of an InferenceService's pods: {@code endpoint.type}, port {@code endpoint.port} (8080 by
 * default) targeting the port the server really listens on. Upstream targets the Service port itself, which misses
 * vLLM (8000), TGI (80) and SGLang (30000) when no endpoint block is given; that is fixed here.
 */
public final class IsvcServiceBuilder {
  private IsvcServiceBuilder() {
  }

  public static Service build(ServingPlan plan) {
    return new ServiceBuilder()
        .withNewMetadata()
          .withName(plan.serviceName())
          .withNamespace(plan.namespace())
          .withLabels(plan.labels())
        .endMetadata()
        .withNewSpec()
          .withType(EnumValues.of(plan.serviceType()))
          .withSelector(plan.selector())
          .addNewPort()
            .withName("http")
            .withProtocol("TCP")
            .withPort(plan.servicePort())
            .withTargetPort(new IntOrString(plan.containerPort()))
            .withNodePort(plan.serviceType() == ServiceType.CLUSTER_IP || plan.spec().endpoint() == null ? null
                : plan.spec().endpoint().nodePort())
          .endPort()
        .endSpec()
        .build();
  }
}
