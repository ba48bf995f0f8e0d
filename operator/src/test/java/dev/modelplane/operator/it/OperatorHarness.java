package dev.modelplane.operator.it;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.app.ModelplaneOperator;
import dev.modelplane.operator.modelsource.InspectionPolicy;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;

/** The operator running in-process against the shared control plane, with SSA on as in production. */
final class OperatorHarness implements AutoCloseable {
  final ModelplaneOperator operator;
  final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  final KubernetesClient client;

  private OperatorHarness(ControlPlane controlPlane, OperatorSettings settings) {
    this.client = controlPlane.newClient();
    this.operator = ModelplaneOperator.create(client, settings, registry, null).start();
  }

  /** The operator with test settings: no cache claim (kwok has no storage), PriorityClasses created. */
  static OperatorHarness start(ControlPlane controlPlane) {
    return start(controlPlane, OperatorSettings.defaults()
        .withModelCache(OperatorSettings.ModelCacheSettings.disabled())
        .withCreatePriorityClasses(true));
  }

  /**
   * The operator with {@code settings}; model inspection may read plain http from loopback addresses, where the
   * tests' file servers listen (the default policy refuses both).
   */
  static OperatorHarness start(ControlPlane controlPlane, OperatorSettings settings) {
    return new OperatorHarness(controlPlane, settings.toBuilder().modelInspection(InspectionPolicy.defaults()
        .withAllowHttp(true).withAllowedCidrs(List.of("127.0.0.0/8", "::1/128"))).build());
  }

  @Override
  public void close() {
    operator.close();
    client.close();
  }

  static Model model(String name, String spec) {
    return Serialization.unmarshal("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: %s}
        spec:
        %s""".formatted(name, spec.stripIndent().lines().map(l -> "  " + l + "\n").reduce("", String::concat)),
        Model.class);
  }

  static InferenceService isvc(String name, String spec) {
    return Serialization.unmarshal("""
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: %s}
        spec:
        %s""".formatted(name, spec.stripIndent().lines().map(l -> "  " + l + "\n").reduce("", String::concat)),
        InferenceService.class);
  }

  /**
   * Marks a pod Ready through the status subresource, standing in for a kubelet whose probes passed (kwok runs no
   * probes).
   */
  static void markReady(KubernetesClient client, Pod pod) {
    String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    List<PodCondition> conditions = new ArrayList<>();
    for (String type : List.of("Ready", "ContainersReady")) {
      conditions.add(new PodConditionBuilder().withType(type).withStatus("True").withLastTransitionTime(now).build());
    }
    if (pod.getStatus().getConditions() != null) {
      pod.getStatus().getConditions().stream()
          .filter(c -> !c.getType().equals("Ready") && !c.getType().equals("ContainersReady"))
          .forEach(conditions::add);
    }
    pod.getStatus().setConditions(conditions);
    if (pod.getStatus().getContainerStatuses() != null) {
      pod.getStatus().getContainerStatuses().forEach(s -> s.setReady(true));
    }
    client.pods().inNamespace(pod.getMetadata().getNamespace()).resource(pod).updateStatus();
  }
}
