package dev.modelplane.operator.ome.isvc;

import dev.modelplane.operator.prefixrouting.KvEventsWiring;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategy;
import io.fabric8.kubernetes.api.model.apps.DeploymentStrategyBuilder;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscalerBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects of a raw-deployment component: Deployment N (pods labelled {@code app=N}), Service N on the serving
 * container's ports but a server's KV-event sockets, the autoscaler ({@link Autoscalers}) and a PodDisruptionBudget N.
 */
final class RawWorkloads {
  static final String APP = "app";
  static final String SERVICE_TYPE = "ome.io/service-type";
  static final String LOAD_BALANCER_IP = "ome.io/load-balancer-ip";

  private RawWorkloads() {
  }

  static List<HasMetadata> build(ComponentPlan plan) {
    List<HasMetadata> objects = new ArrayList<>();
    objects.add(deployment(plan));
    objects.add(service(plan, Map.of(APP, plan.name())));
    objects.addAll(Autoscalers.build(plan));
    objects.add(disruptionBudget(plan));
    return objects;
  }

  static Deployment deployment(ComponentPlan plan) {
    DeploymentStrategy strategy = plan.settings().getDeploymentStrategy() != null
        ? plan.settings().getDeploymentStrategy()
        : new DeploymentStrategyBuilder().withType("RollingUpdate").withNewRollingUpdate()
            .withMaxUnavailable(new IntOrString(0)).withMaxSurge(new IntOrString(1)).endRollingUpdate().build();
    return new DeploymentBuilder()
        .withNewMetadata().withName(plan.name()).withLabels(withApp(plan.labels(), plan.name()))
        .withAnnotations(plan.annotations()).endMetadata()
        .withNewSpec()
        .withNewSelector().addToMatchLabels(APP, plan.name()).endSelector()
        .withStrategy(strategy).withRevisionHistoryLimit(10).withProgressDeadlineSeconds(600)
        .withTemplate(template(plan.pod(), plan.name()))
        .endSpec().build();
  }

  /** The pod template with {@code app=N} added to its labels. */
  static PodTemplateSpec template(PodTemplateSpec pod, String name) {
    return new PodTemplateSpecBuilder(pod).editOrNewMetadata()
        .withLabels(withApp(pod.getMetadata() == null ? null : pod.getMetadata().getLabels(), name)).endMetadata()
        .build();
  }

  /** Service N selecting {@code selector}, on the serving container's ports (8080 when it declares none). */
  static Service service(ComponentPlan plan, Map<String, String> selector) {
    ServiceBuilder b = new ServiceBuilder().withNewMetadata().withName(plan.name()).withLabels(plan.labels())
        .withAnnotations(plan.annotations()).endMetadata()
        .withNewSpec().withSelector(selector).withPorts(ports(plan)).endSpec();
    String type = plan.serviceAnnotations().get(SERVICE_TYPE);
    if ("LoadBalancer".equals(type) || "NodePort".equals(type)) {
      b.editSpec().withType(type).endSpec();
      String ip = plan.serviceAnnotations().get(LOAD_BALANCER_IP);
      if ("LoadBalancer".equals(type) && ip != null && !ip.isBlank()) {
        b.editSpec().withLoadBalancerIP(ip).endSpec();
      }
    }
    return b.build();
  }

  private static List<ServicePort> ports(ComponentPlan plan) {
    List<ServicePort> ports = new ArrayList<>();
    var serving = ModelWiring.mainContainer(plan.pod().getSpec(), plan.mainContainer());
    List<ContainerPort> declared = serving == null || serving.getPorts() == null ? List.of() : serving.getPorts();
    for (ContainerPort p : declared) {
      if (eventSocket(plan, p)) {
        continue;
      }
      ports.add(new ServicePortBuilder().withName(p.getName() == null ? "port-" + p.getContainerPort() : p.getName())
          .withPort(p.getContainerPort()).withTargetPort(new IntOrString(p.getContainerPort()))
          .withProtocol(p.getProtocol() == null ? "TCP" : p.getProtocol()).build());
    }
    if (ports.isEmpty()) {
      ports.add(new ServicePortBuilder().withName("http").withPort(plan.servingPort())
          .withTargetPort(new IntOrString(plan.servingPort())).withProtocol("TCP").build());
    }
    return ports;
  }

  /**
   * A server's KV-event or replay socket: never in a Service, which a LoadBalancer or NodePort type would expose
   * beyond the pool (the events carry the prompts' token ids), and the router reaches each pod by its address. A
   * router's bound events port stays: the servers connect to it through the Service.
   */
  private static boolean eventSocket(ComponentPlan plan, ContainerPort p) {
    return KvEventsWiring.REPLAY_PORT.equals(p.getName())
        || KvEventsWiring.EVENTS_PORT.equals(p.getName()) && !plan.component().equals(ComponentPlanner.ROUTER);
  }

  static PodDisruptionBudget disruptionBudget(ComponentPlan plan) {
    PodDisruptionBudgetBuilder b = new PodDisruptionBudgetBuilder().withNewMetadata().withName(plan.name())
        .withLabels(plan.labels()).endMetadata().withNewSpec().withNewSelector().addToMatchLabels(APP, plan.name())
        .endSelector().endSpec();
    if (plan.settings().getMinAvailable() != null) {
      b.editSpec().withMinAvailable(plan.settings().getMinAvailable()).endSpec();
    } else {
      b.editSpec().withMaxUnavailable(plan.settings().getMaxUnavailable() != null
          ? plan.settings().getMaxUnavailable() : new IntOrString(1)).endSpec();
    }
    return b.build();
  }

  static HorizontalPodAutoscaler hpa(ComponentPlan plan, String metric, int utilization) {
    return new HorizontalPodAutoscalerBuilder().withNewMetadata().withName(plan.name()).withLabels(plan.labels())
        .endMetadata().withNewSpec()
        .withNewScaleTargetRef().withApiVersion("apps/v1").withKind("Deployment").withName(plan.name())
        .endScaleTargetRef()
        .withMinReplicas(Math.max(1, plan.minReplicas())).withMaxReplicas(plan.maxReplicas())
        .addNewMetric().withType("Resource").withNewResource().withName(metric).withNewTarget()
        .withType("Utilization").withAverageUtilization(utilization).endTarget().endResource().endMetric()
        .endSpec().build();
  }

  static Map<String, String> withApp(Map<String, String> labels, String name) {
    Map<String, String> out = new HashMap<>(labels == null ? Map.of() : labels);
    out.put(APP, name);
    return out;
  }
}
