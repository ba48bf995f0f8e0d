package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.EndpointPickerSpec;
import dev.modelplane.api.otterscale.v1alpha1.GatewayRef;
import dev.modelplane.api.otterscale.v1alpha1.HttpRouteSpec;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.ModelServiceSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How requests reach a ModelService: its InferencePool (decode and prefill pods, the picker's Service as endpoint
 * picker), its HTTPRoute to that pool, and the Istio DestinationRule of the picker's Service. The route matches
 * OtterScale's {@code OtterScale-Model-Name} header set to the ModelService name and, beyond upstream, to
 * {@code spec.model.name} — in that header or in {@code X-Gateway-Model-Name}, the header GIE's body-based routing
 * fills from the request's {@code model} — so clients may name the model they asked for.
 */
final class TrafficBuilder {
  static final String MODEL_HEADER = "OtterScale-Model-Name";
  static final String BODY_MODEL_HEADER = "X-Gateway-Model-Name";
  static final String POOL_API = "inference.networking.k8s.io/v1";
  static final String ROUTE_API = "gateway.networking.k8s.io/v1";
  static final String DESTINATION_RULE_API = "networking.istio.io/v1beta1";

  private TrafficBuilder() {
  }

  /**
   * The InferencePool. Without {@code spec.inferencePool} (the default pool) it fails closed on port 9002, as
   * upstream; otherwise it takes the picker's port and failure mode ({@code FailOpen} by the CRD's default).
   */
  static GenericKubernetesResource pool(ModelService ms, ModelServiceNames names, EndpointPickerSpec picker) {
    boolean explicit = ms.getSpec().inferencePool() != null;
    String failureMode = explicit && picker.failureMode() != null ? picker.failureMode().name() : "FailClose";
    Map<String, Object> ref = new LinkedHashMap<>();
    ref.put("group", "");
    ref.put("kind", "Service");
    ref.put("name", names.picker());
    ref.put("port", Map.of("number", explicit ? picker.port() : PickerBuilder.DEFAULT_PORT));
    ref.put("failureMode", failureMode);
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("selector", Map.of("matchLabels", names.poolSelector()));
    spec.put("targetPorts", List.of(Map.of("number", ServingDeploymentBuilder.enginePort(ms.getSpec()))));
    spec.put("endpointPickerRef", ref);
    GenericKubernetesResource pool = resource(POOL_API, "InferencePool", names.pool(), names,
        ModelServiceNames.standard(names.pool(), ModelServiceNames.PICKER_COMPONENT), spec);
    // The name vLLM serves (--served-model-name): a gateway routing by model knows the pool serves it before any
    // server is up.
    pool.getMetadata().setAnnotations(Map.of(dev.modelplane.api.gie.v1.InferencePool.SERVED_MODELS_ANNOTATION, ms.getSpec().model().name()));
    return pool;
  }

  /**
   * The HTTPRoute to the pool: on {@code spec.httpRoute}'s Gateway and hostnames, else on the operator's default
   * Gateway; {@code null} when neither is set.
   */
  static GenericKubernetesResource route(ModelService ms, ModelServiceNames names, ModelServiceSettings settings) {
    HttpRouteSpec routeSpec = ms.getSpec().httpRoute();
    Map<String, Object> parent = new LinkedHashMap<>();
    List<String> hostnames = List.of();
    if (routeSpec != null) {
      GatewayRef gw = routeSpec.gatewayRef();
      parent.put("name", gw.name());
      if (gw.namespace() != null && !gw.namespace().isEmpty() && !gw.namespace().equals(names.namespace())) {
        parent.put("namespace", gw.namespace());
      }
      hostnames = routeSpec.hostnames() == null ? List.of() : routeSpec.hostnames();
    } else if (!settings.defaultGatewayName().isEmpty()) {
      parent.put("group", "gateway.networking.k8s.io");
      parent.put("kind", "Gateway");
      parent.put("name", settings.defaultGatewayName());
      parent.put("namespace", settings.defaultGatewayNamespace());
    } else {
      return null;
    }
    List<Map<String, Object>> matches = new ArrayList<>();
    matches.add(headerMatch(MODEL_HEADER, names.service()));
    String model = ms.getSpec().model().name();
    if (!model.equals(names.service())) {
      matches.add(headerMatch(MODEL_HEADER, model));
    }
    matches.add(headerMatch(BODY_MODEL_HEADER, model));
    Map<String, Object> rule = new LinkedHashMap<>();
    rule.put("matches", matches);
    rule.put("backendRefs", List.of(Map.of("group", "inference.networking.k8s.io", "kind", "InferencePool",
        "name", names.pool())));
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("parentRefs", List.of(parent));
    if (!hostnames.isEmpty()) {
      spec.put("hostnames", hostnames);
    }
    spec.put("rules", List.of(rule));
    return resource(ROUTE_API, "HTTPRoute", names.pool(), names,
        ModelServiceNames.standard(names.pool(), ModelServiceNames.PICKER_COMPONENT), spec);
  }

  private static Map<String, Object> headerMatch(String header, String value) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("headers", List.of(Map.of("type", "Exact", "name", header, "value", value)));
    m.put("path", Map.of("type", "PathPrefix", "value", "/"));
    return m;
  }

  /** TLS to the picker's Service through the mesh, without checking its (self-signed) certificate. */
  static GenericKubernetesResource destinationRule(ModelServiceNames names) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("host", names.picker() + "." + names.namespace() + ".svc.cluster.local");
    spec.put("trafficPolicy", Map.of("tls", Map.of("mode", "SIMPLE", "insecureSkipVerify", true)));
    return resource(DESTINATION_RULE_API, "DestinationRule", names.picker(), names, names.pickerLabels(), spec);
  }

  static GenericKubernetesResource resource(String apiVersion, String kind, String name, ModelServiceNames names,
      Map<String, String> labels, Map<String, Object> spec) {
    return new GenericKubernetesResourceBuilder().withApiVersion(apiVersion).withKind(kind)
        .withNewMetadata().withName(name).withNamespace(names.namespace()).withLabels(labels).endMetadata()
        .addToAdditionalProperties("spec", spec).build();
  }
}
