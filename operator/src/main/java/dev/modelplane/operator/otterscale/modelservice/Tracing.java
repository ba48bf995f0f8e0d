package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.operator.ModelServiceSettings;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import java.util.ArrayList;
import java.util.List;

/** The OpenTelemetry environment OtterScale gives the picker and the routing sidecar when tracing is on. */
final class Tracing {
  private Tracing() {
  }

  /**
   * The variables for service {@code serviceName}; none when tracing is off. {@code podAttributes} adds the
   * resource attributes the picker reports (namespace, node, pod), which read {@code NAMESPACE} set before them.
   */
  static List<EnvVar> env(ModelServiceSettings.Tracing tracing, String serviceName, boolean podAttributes) {
    List<EnvVar> env = new ArrayList<>();
    if (!tracing.enabled()) {
      return env;
    }
    env.add(ServingDeploymentBuilder.env("OTEL_SERVICE_NAME", serviceName));
    env.add(ServingDeploymentBuilder.env("OTEL_EXPORTER_OTLP_ENDPOINT", tracing.endpoint()));
    env.add(ServingDeploymentBuilder.env("OTEL_TRACES_EXPORTER", "otlp"));
    if (podAttributes) {
      env.add(field("OTEL_RESOURCE_ATTRIBUTES_NODE_NAME", "spec.nodeName"));
      env.add(field("OTEL_RESOURCE_ATTRIBUTES_POD_NAME", "metadata.name"));
      env.add(ServingDeploymentBuilder.env("OTEL_RESOURCE_ATTRIBUTES", "k8s.namespace.name=$(NAMESPACE),"
          + "k8s.node.name=$(OTEL_RESOURCE_ATTRIBUTES_NODE_NAME),k8s.pod.name=$(OTEL_RESOURCE_ATTRIBUTES_POD_NAME)"));
    }
    if (!tracing.sampler().isEmpty()) {
      env.add(ServingDeploymentBuilder.env("OTEL_TRACES_SAMPLER", tracing.sampler()));
    }
    if (!tracing.samplerArg().isEmpty()) {
      env.add(ServingDeploymentBuilder.env("OTEL_TRACES_SAMPLER_ARG", tracing.samplerArg()));
    }
    return env;
  }

  static EnvVar field(String name, String path) {
    return new EnvVarBuilder().withName(name).withNewValueFrom().withNewFieldRef().withApiVersion("v1")
        .withFieldPath(path).endFieldRef().endValueFrom().build();
  }
}
