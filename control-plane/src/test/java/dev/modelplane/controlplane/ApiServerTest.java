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
