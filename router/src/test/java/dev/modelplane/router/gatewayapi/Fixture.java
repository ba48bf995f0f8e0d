package dev.modelplane.router.gatewayapi;

import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.router.pool.PoolKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds {@link GatewayInputs} from YAML documents for the compiler's tests. */
final class Fixture {
  static final String CONTROLLER = "modelplane.dev/gateway-controller";
  static final String POOL_A = "{group: inference.networking.k8s.io, kind: InferencePool, name: pool-a}";
  static final String POOL_B = "{group: inference.networking.k8s.io, kind: InferencePool, name: pool-b}";
  static final String POOL_C = "{group: inference.networking.k8s.io, kind: InferencePool, name: pool-c}";

  static final String CLASS = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: GatewayClass
      metadata: {name: modelplane, generation: 2}
      spec: {controllerName: modelplane.dev/gateway-controller}
      """;

  /** Gateway default/gw with one HTTP listener "http" on 8080 admitting routes of its own namespace. */
  static final String GATEWAY = """
      apiVersion: gateway.networking.k8s.io/v1
      kind: Gateway
      metadata: {name: gw, namespace: default, generation: 3}
      spec:
        gatewayClassName: modelplane
        listeners:
        - {name: http, port: 8080, protocol: HTTP}
      """;

  private final List<GenericKubernetesResource> classes = new ArrayList<>();
  private final List<GenericKubernetesResource> gateways = new ArrayList<>();
  private final List<GenericKubernetesResource> routes = new ArrayList<>();
  private final List<GenericKubernetesResource> grants = new ArrayList<>();
  private final Map<String, Map<String, String>> labels = new HashMap<>();
  private final Set<String> services = new HashSet<>();
  private final Map<PoolKey, InferencePool> pools = new LinkedHashMap<>();

  /** Our GatewayClass, Gateway default/gw and the pools default/pool-a, pool-b and pool-c. */
  static Fixture standard() {
    return new Fixture().add(CLASS).add(GATEWAY).pool("default", "pool-a").pool("default", "pool-b")
        .pool("default", "pool-c");
  }

  /** Our GatewayClass and the three pools, no Gateway. */
  static Fixture noGateway() {
    return new Fixture().add(CLASS).pool("default", "pool-a").pool("default", "pool-b").pool("default", "pool-c");
  }

  /** Adds every document of {@code yaml} (separated by {@code ---} lines) by its kind. */
  Fixture add(String yaml) {
    for (String doc : yaml.split("(?m)^---\\s*$")) {
      if (doc.isBlank()) {
        continue;
      }
      if (doc.matches("(?s).*(?m:^kind: InferencePool\\s*$).*")) {
        InferencePool pool = Serialization.unmarshal(doc, InferencePool.class);
        pools.put(new PoolKey(pool.getMetadata().getNamespace(), pool.getMetadata().getName()), pool);
        continue;
      }
      GenericKubernetesResource resource = Serialization.unmarshal(doc, GenericKubernetesResource.class);
      switch (resource.getKind()) {
        case "GatewayClass" -> classes.add(resource);
        case "Gateway" -> gateways.add(resource);
        case "HTTPRoute" -> routes.add(resource);
        case "ReferenceGrant" -> grants.add(resource);
        default -> throw new IllegalArgumentException("unexpected kind " + resource.getKind());
      }
    }
    return this;
  }

  Fixture pool(String namespace, String name) {
    return add("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata: {name: %s, namespace: %s, generation: 5}
        spec:
          selector: {matchLabels: {app: %s}}
          targetPorts: [{number: 8000}]
        """.formatted(name, namespace, name));
  }

  Fixture namespace(String name, Map<String, String> namespaceLabels) {
    labels.put(name, namespaceLabels);
    return this;
  }

  Fixture service(String key) {
    services.add(key);
    return this;
  }

  GatewayInputs inputs() {
    return new GatewayInputs(CONTROLLER, classes, gateways, routes, grants, labels, services, pools);
  }

  GatewayModel compile() {
    return GatewayModel.compile(inputs());
  }

  /** An HTTPRoute default/{name} created at the given second of 2024-01-01, under Gateway gw unless the spec names
   *  its own parentRefs; {@code spec} is the YAML of its spec without indentation. */
  /** A Gateway default/{name} of our class (generation 4) with these listeners, one YAML list item per line. */
  static String gateway(String name, String listeners) {
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: Gateway
        metadata: {name: %s, namespace: default, generation: 4}
        spec:
          gatewayClassName: modelplane
          listeners:
        %s""".formatted(name, listeners.indent(2));
  }

  static String route(String name, int createdSecond, String spec) {
    return route("default", name, createdSecond, spec);
  }

  static String route(String name, String spec) {
    return route("default", name, 0, spec);
  }

  static String route(String namespace, String name, int createdSecond, String spec) {
    String parents = spec.contains("parentRefs:") ? "" : "parentRefs: [{name: gw, namespace: default}]\n";
    return """
        apiVersion: gateway.networking.k8s.io/v1
        kind: HTTPRoute
        metadata:
          name: %s
          namespace: %s
          generation: 7
          creationTimestamp: "2024-01-01T00:00:%02dZ"
        spec:
        %s""".formatted(name, namespace, createdSecond, (parents + spec).indent(2));
  }

  static HttpRequestView get(String path) {
    return request("GET", "", path, "", Map.of());
  }

  static HttpRequestView get(String host, String path) {
    return request("GET", host, path, "", Map.of());
  }

  static HttpRequestView request(String method, String host, String path, String query, Map<String, String> headers) {
    return new HttpRequestView(method, host, path, query, headers);
  }
}
