package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.ApiResources;
import dev.modelplane.api.gie.v1.InferencePool;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Behaviour only a real kube-apiserver has: structural-schema and CEL validation, status-subresource semantics,
 * optimistic concurrency and server-side apply. Each of these would pass silently, or fail differently, on the
 * fabric8 mock server.
 */
@WithControlPlane
class ApiServerTest {
  private static final String POOL = """
      apiVersion: inference.networking.k8s.io/v1
      kind: InferencePool
      metadata:
        name: %s
      spec:
        selector:
          matchLabels:
            app: vllm
        targetPorts: %s
        endpointPickerRef:
          name: epp
          %s
      """;

  @Test
  void everyModelplaneCrdIsEstablished(KubernetesClient client) {
    for (Class<? extends HasMetadata> type : ApiResources.resourceClasses()) {
      CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions()
          .withName(HasMetadata.getPlural(type) + "." + HasMetadata.getGroup(type)).get();
      assertThat(crd.getStatus().getConditions())
          .anySatisfy(c -> {
            assertThat(c.getType()).isEqualTo("Established");
            assertThat(c.getStatus()).isEqualTo("True");
          });
      assertThat(crd.getSpec().getNames().getCategories()).contains("modelplane");
    }
  }

  @Test
  void anOutOfRangeFieldIsRejectedWithTheSchemaMessage(KubernetesClient client) {
    GenericKubernetesResource bad = pool("bad", "[{number: 70000}]", "port: {number: 9002}");
    assertThatThrownBy(() -> client.resource(bad).create())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(422))
        .hasMessageContaining("spec.targetPorts[0].number")
        .hasMessageContaining("should be less than or equal to 65535");
  }

  @Test
  void celRulesAreEnforced(KubernetesClient client) {
    GenericKubernetesResource duplicatePorts = pool("dup", "[{number: 8000}, {number: 8000}]", "port: {number: 9002}");
    assertThatThrownBy(() -> client.resource(duplicatePorts).create())
        .hasMessageContaining("port number must be unique");
    GenericKubernetesResource serviceWithoutPort = pool("noport", "[{number: 8000}]", "");
    assertThatThrownBy(() -> client.resource(serviceWithoutPort).create())
        .hasMessageContaining("port is required when kind is 'Service'");
  }

  @Test
  void schemaDefaultsAreApplied(KubernetesClient client) {
    client.resource(pool("defaults", "[{number: 8000}]", "port: {number: 9002}")).create();
    InferencePool pool = client.resources(InferencePool.class).withName("defaults").get();
    assertThat(pool.getSpec().endpointPickerRef().kind()).isEqualTo("Service");
    assertThat(pool.getSpec().endpointPickerRef().failureMode()).hasToString("FailClose");
    assertThat(pool.getSpec().appProtocol()).hasToString("HTTP");
  }

  @Test
  void aPoolWithoutAnEndpointPickerIsAcceptedButNotOneWithoutASpec(KubernetesClient client) {
    client.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata:
          name: self-picked
        spec:
          selector: {matchLabels: {app: vllm}}
          targetPorts: [{number: 8000}]
        """, GenericKubernetesResource.class)).create();
    InferencePool pool = client.resources(InferencePool.class).withName("self-picked").get();
    assertThat(pool.getSpec().endpointPickerRef()).isNull();
    assertThat(pool.getSpec().appProtocol()).hasToString("HTTP");
    GenericKubernetesResource noSpec = io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata:
          name: no-spec
        """, GenericKubernetesResource.class);
    assertThatThrownBy(() -> client.resource(noSpec).create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec: Required value");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"inference.networking.x-k8s.io/v1alpha2", "llm-d.ai/v1alpha2"})
  void rewritesAndObjectivesGetTheirDefaults(String apiVersion, KubernetesClient client) {
    GenericKubernetesResource rewrite = client.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
        apiVersion: %s
        kind: InferenceModelRewrite
        metadata:
          name: names
        spec:
          poolRef: {name: pool}
          rules:
          - matches: [{model: {value: llama-3}}]
            targets: [{modelRewrite: llama-3-8b, weight: 3}, {modelRewrite: llama-3-8b-canary, weight: 1}]
        """.formatted(apiVersion), GenericKubernetesResource.class)).create();
    assertThat(text(rewrite, "spec", "rules", 0, "matches", 0, "model", "type")).isEqualTo("Exact");
    assertThat(text(rewrite, "spec", "poolRef", "group")).isEqualTo("inference.networking.k8s.io");
    assertThat(text(rewrite, "spec", "poolRef", "kind")).isEqualTo("InferencePool");
    rewrite.setAdditionalProperty("status", java.util.Map.of());
    GenericKubernetesResource written = client.resource(rewrite).updateStatus();
    assertThat(text(written, "status", "conditions", 0, "type")).isEqualTo("Accepted");
    assertThat(text(written, "status", "conditions", 0, "status")).isEqualTo("Unknown");
    assertThat(text(written, "status", "conditions", 0, "reason")).isEqualTo("Pending");

    GenericKubernetesResource objective = client.resource(io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
        """
        apiVersion: %s
        kind: InferenceObjective
        metadata:
          name: chat
        spec:
          priority: 10
          poolRef: {name: pool}
        """.formatted(apiVersion), GenericKubernetesResource.class)).create();
    assertThat(text(objective, "spec", "poolRef", "group")).isEqualTo("inference.networking.k8s.io");
    objective.setAdditionalProperty("status", java.util.Map.of());
    assertThat(text(client.resource(objective).updateStatus(), "status", "conditions", 0, "type")).isEqualTo("Ready");

    GenericKubernetesResource badWeight = io.fabric8.kubernetes.client.utils.Serialization.unmarshal("""
        apiVersion: %s
        kind: InferenceModelRewrite
        metadata:
          name: bad-weight
        spec:
          poolRef: {name: pool}
          rules: [{targets: [{modelRewrite: m, weight: 0}]}]
        """.formatted(apiVersion), GenericKubernetesResource.class);
    assertThatThrownBy(() -> client.resource(badWeight).create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("spec.rules[0].targets[0].weight in body should be greater than or equal to 1");
  }

  /** The text at a path of map keys and list indexes in a generic object's fields. */
  private static String text(GenericKubernetesResource resource, Object... path) {
    Object node = resource.getAdditionalProperties();
    for (Object step : path) {
      node = step instanceof Integer i ? ((java.util.List<?>) node).get(i) : ((java.util.Map<?, ?>) node).get(step);
    }
    return String.valueOf(node);
  }

  @Test
  void aStatusUpdateDoesNotBumpTheGeneration(KubernetesClient client) {
    client.resource(pool("gen", "[{number: 8000}]", "port: {number: 9002}")).create();
    var pools = client.resources(InferencePool.class);
    InferencePool created = pools.withName("gen").get();
    assertThat(created.getMetadata().getGeneration()).isEqualTo(1L);

    created.setStatus(client.getKubernetesSerialization().unmarshal("""
        {"parents":[{"parentRef":{"name":"gw"},"conditions":[{"type":"Accepted","status":"True","reason":"Accepted",
        "message":"ok","lastTransitionTime":"2026-11-01T10:00:00Z"}]}]}""",
        dev.modelplane.api.gie.v1.InferencePoolStatus.class));
    InferencePool afterStatus = pools.resource(created).updateStatus();
    assertThat(afterStatus.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(afterStatus.getStatus().parents()).hasSize(1);
    // A schema default inside status is applied too.
    assertThat(afterStatus.getStatus().parents().get(0).parentRef().kind()).isEqualTo("Gateway");

    InferencePool edited = pools.withName("gen").edit(p -> {
      p.getSpec().targetPorts().set(0, new dev.modelplane.api.gie.v1.Port(8001));
      return p;
    });
    assertThat(edited.getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(edited.getStatus().parents()).as("a main-resource write keeps the status").hasSize(1);
  }

  @Test
  void aStaleResourceVersionGetsAConflict(KubernetesClient client) {
    ConfigMap cm = client.configMaps().resource(new ConfigMapBuilder().withNewMetadata().withName("rv").endMetadata()
        .addToData("k", "1").build()).create();
    ConfigMap fresh = client.configMaps().withName("rv").edit(c -> {
      c.getData().put("k", "2");
      return c;
    });
    assertThat(fresh.getMetadata().getResourceVersion()).isNotEqualTo(cm.getMetadata().getResourceVersion());
    cm.getData().put("k", "3");
    assertThatThrownBy(() -> client.configMaps().resource(cm).update())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409));
  }

  @Test
  void serverSideApplyTracksManagersAndReportsConflicts(KubernetesClient client) {
    ConfigMap first = new ConfigMapBuilder().withNewMetadata().withName("ssa").endMetadata()
        .addToData("owned", "by-a").build();
    ConfigMap applied = client.configMaps().resource(first).fieldManager("manager-a").serverSideApply();
    assertThat(applied.getMetadata().getManagedFields())
        .anySatisfy(f -> assertThat(f.getManager()).isEqualTo("manager-a"));

    ConfigMap second = new ConfigMapBuilder().withNewMetadata().withName("ssa").endMetadata()
        .addToData("owned", "by-b").build();
    assertThatThrownBy(() -> client.configMaps().resource(second).fieldManager("manager-b").serverSideApply())
        .isInstanceOf(KubernetesClientException.class)
        .satisfies(e -> assertThat(((KubernetesClientException) e).getCode()).isEqualTo(409))
        .hasMessageContaining("manager-a");

    ConfigMap forced = client.configMaps().resource(second).fieldManager("manager-b").forceConflicts()
        .serverSideApply();
    assertThat(forced.getData()).containsEntry("owned", "by-b");
  }

  private static GenericKubernetesResource pool(String name, String ports, String pickerPort) {
    return io.fabric8.kubernetes.client.utils.Serialization.unmarshal(POOL.formatted(name, ports, pickerPort),
        GenericKubernetesResource.class);
  }
}
