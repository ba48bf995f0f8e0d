package dev.modelplane.operator.ome.isvc;

import dev.modelplane.operator.OmeServingSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.IngressBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How an InferenceService is reached. Always the Service {@code <isvc>} in front of its entry component (the router
 * when there is one, else the engine), unless the service is labelled cluster-local for Knative; with ingress on, an
 * Ingress {@code <isvc>} (or a Gateway API HTTPRoute) for the host the domain template makes. URLs follow OME:
 * {@code http://<isvc>.<ns>.svc.cluster.local:<port>} in the cluster (the entry's serving port, left out when it is 80),
 * {@code http://<host>} through ingress.
 */
final class Exposure {
  static final String EXTERNAL_COMPONENT = "external-service";
  static final String CLUSTER_LOCAL = "networking.knative.dev/visibility";
  private static final List<String> COPIED_PREFIXES = List.of("service.beta.kubernetes.io/", "cloud.google.com/",
      "service.kubernetes.io/");

  private Exposure() {
  }

  /** The in-cluster address of the service, whose Service listens on {@code port} (named unless it is 80). */
  static String clusterUrl(String isvc, String namespace, int port) {
    return "http://" + isvc + "." + namespace + ".svc.cluster.local" + (port == 80 || port <= 0 ? "" : ":" + port);
  }

  /** The component's in-cluster address. */
  static String componentUrl(String name, String namespace) {
    return "http://" + name + "." + namespace + ".svc.cluster.local";
  }

  /** The host name the domain template gives. */
  static String host(OmeServingSettings settings, String isvc, String namespace) {
    return settings.domainTemplate().replaceAll("\\{\\{\\s*\\.Name\\s*}}", isvc)
        .replaceAll("\\{\\{\\s*\\.Namespace\\s*}}", namespace)
        .replaceAll("\\{\\{\\s*\\.IngressDomain\\s*}}", settings.ingressDomain());
  }

  /**
   * The exposure objects.
   *
   * @param entry the entry component's plan
   * @param isvcLabels the InferenceService's labels
   * @param isvcAnnotations the InferenceService's annotations
   */
  static List<HasMetadata> objects(String isvc, String namespace, ComponentPlan entry,
      Map<String, String> isvcLabels, Map<String, String> isvcAnnotations, OmeServingSettings settings) {
    List<HasMetadata> objects = new ArrayList<>();
    if (!"cluster-local".equals(isvcLabels == null ? null : isvcLabels.get(CLUSTER_LOCAL))
        && entry.mode() != ComponentModes.Mode.SERVERLESS) {
      objects.add(externalService(isvc, entry, isvcAnnotations));
    }
    if (settings.ingressEnabled()) {
      String host = host(settings, isvc, namespace);
      objects.add(settings.gatewayApi() ? httpRoute(isvc, host, entry, settings) : ingress(isvc, host, entry,
          settings));
    }
    return objects;
  }

  private static Service externalService(String isvc, ComponentPlan entry, Map<String, String> isvcAnnotations) {
    Map<String, String> annotations = new LinkedHashMap<>();
    if (isvcAnnotations != null) {
      isvcAnnotations.forEach((k, v) -> {
        if (COPIED_PREFIXES.stream().anyMatch(k::startsWith)) {
          annotations.put(k, v);
        }
      });
    }
    return new ServiceBuilder().withNewMetadata().withName(isvc)
        .withLabels(Map.of(OmeLabels.INFERENCE_SERVICE, isvc, OmeLabels.COMPONENT, EXTERNAL_COMPONENT))
        .withAnnotations(annotations).endMetadata()
        .withNewSpec().withSelector(Map.of(OmeLabels.INFERENCE_SERVICE, isvc, OmeLabels.COMPONENT, entry.component()))
        .addNewPort().withName("http").withPort(entry.servingPort())
        .withTargetPort(new IntOrString(entry.servingPort())).withProtocol("TCP").endPort().endSpec().build();
  }

  private static Ingress ingress(String isvc, String host, ComponentPlan entry, OmeServingSettings settings) {
    return new IngressBuilder().withNewMetadata().withName(isvc)
        .withLabels(Map.of(OmeLabels.INFERENCE_SERVICE, isvc)).endMetadata().withNewSpec()
        .withIngressClassName(settings.ingressClassName())
        .addNewRule().withHost(host).withNewHttp().addNewPath().withPath("/").withPathType("Prefix")
        .withNewBackend().withNewService().withName(entry.name()).withNewPort().withNumber(entry.servingPort())
        .endPort().endService().endBackend().endPath().endHttp().endRule().endSpec().build();
  }

  private static GenericKubernetesResource httpRoute(String isvc, String host, ComponentPlan entry,
      OmeServingSettings settings) {
    String[] gateway = settings.gateway().split("/", 2);
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("parentRefs", List.of(Map.of("name", gateway[1], "namespace", gateway[0])));
    spec.put("hostnames", List.of(host));
    spec.put("rules", List.of(Map.of("backendRefs", List.of(Map.of("name", entry.name(), "port",
        entry.servingPort())))));
    return new GenericKubernetesResourceBuilder().withApiVersion("gateway.networking.k8s.io/v1").withKind("HTTPRoute")
        .withNewMetadata().withName(isvc).withLabels(Map.of(OmeLabels.INFERENCE_SERVICE, isvc)).endMetadata()
        .addToAdditionalProperties("spec", spec).build();
  }
}
