package dev.modelplane.api.otterscale;

import static dev.modelplane.api.testing.Crds.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.api.testing.Crds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The validation OtterScale's ModelService asks for, read back from the generated CRD. */
class OtterscaleSchemaTest {

  @Test
  void namesScopeCategoriesAndSubresources() {
    JsonNode spec = Crds.crd(ModelService.class).path("spec");
    assertThat(spec.path("group").asText()).isEqualTo("model.otterscale.io");
    assertThat(spec.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(spec.path("names").path("plural").asText()).isEqualTo("modelservices");
    assertThat(spec.path("names").path("singular").asText()).isEqualTo("modelservice");
    assertThat(texts(spec.path("names").path("shortNames"))).containsExactly("msvc");
    assertThat(texts(spec.path("names").path("categories"))).containsExactly("otterscale", "modelplane");
    JsonNode version = spec.path("versions").get(0);
    assertThat(version.path("name").asText()).isEqualTo("v1alpha1");
    assertThat(version.path("subresources").has("status")).isTrue();
    assertThat(version.path("subresources").has("scale")).isFalse();
  }

  @Test
  void printerColumnsFollowUpstream() {
    JsonNode columns = Crds.crd(ModelService.class).path("spec").path("versions").get(0)
        .path("additionalPrinterColumns");
    assertThat(columns.findValuesAsText("name"))
        .containsExactly("Phase", "Ready", "Model", "Decode", "Prefill", "Age");
    assertThat(columns.findValuesAsText("jsonPath")).containsExactly(".status.phase",
        ".status.conditions[?(@.type==\"Ready\")].status", ".spec.model.name", ".status.decodeReady",
        ".status.prefillReady", ".metadata.creationTimestamp");
    assertThat(columns.findValuesAsText("type")).containsExactly("string", "string", "string", "string", "string",
        "date");
    List<Integer> priorities = new ArrayList<>();
    columns.forEach(c -> priorities.add(c.path("priority").asInt()));
    assertThat(priorities).containsExactly(0, 0, 0, 1, 1, 0);
  }

  @Test
  void requiredFields() {
    assertThat(texts(Crds.schema(ModelService.class).path("required"))).containsExactly("spec");
    assertThat(texts(at(ModelService.class, "spec").path("required")))
        .containsExactlyInAnyOrder("model", "engine", "accelerator", "decode");
    assertThat(texts(at(ModelService.class, "spec.model").path("required"))).containsExactlyInAnyOrder("name", "image");
    assertThat(texts(at(ModelService.class, "spec.accelerator").path("required"))).containsExactly("type");
    assertThat(texts(at(ModelService.class, "spec.inferencePool").path("required")))
        .containsExactly("endpointPicker");
    assertThat(texts(at(ModelService.class, "spec.httpRoute").path("required"))).containsExactly("gatewayRef");
    assertThat(texts(at(ModelService.class, "spec.httpRoute.gatewayRef").path("required"))).containsExactly("name");
    for (String optional : List.of("spec.engine", "spec.decode", "spec.prefill", "spec.decode.parallelism",
        "spec.routingProxy", "spec.inferencePool.endpointPicker", "spec.monitoring", "spec.monitoring.podMonitor",
        "status")) {
      assertThat(at(ModelService.class, optional).has("required")).as(optional).isFalse();
    }
  }

  @Test
  void modelBoundsAndDefaults() {
    JsonNode name = at(ModelService.class, "spec.model.name");
    assertThat(name.path("minLength").asInt()).isEqualTo(1);
    assertThat(name.path("maxLength").asInt()).isEqualTo(253);
    assertThat(at(ModelService.class, "spec.model.image").path("minLength").asInt()).isEqualTo(1);
    assertThat(at(ModelService.class, "spec.model.mountPath").path("default").asText()).isEqualTo("/models");
    assertThat(at(ModelService.class, "spec.model.imagePullSecrets[].name").path("type").asText())
        .isEqualTo("string");
  }

  @Test
  void engineAndAccelerator() {
    assertPort("spec.engine.port", 8000);
    assertThat(texts(at(ModelService.class, "spec.engine.imagePullPolicy").path("enum")))
        .containsExactlyInAnyOrder("Always", "IfNotPresent", "Never");
    assertThat(at(ModelService.class, "spec.engine.image").has("default")).isFalse();
    assertThat(at(ModelService.class, "spec.engine.args[]").path("type").asText()).isEqualTo("string");
    assertThat(at(ModelService.class, "spec.engine.env[].name").path("type").asText()).isEqualTo("string");
    assertThat(texts(at(ModelService.class, "spec.accelerator.type").path("enum")))
        .containsExactlyInAnyOrder("nvidia", "amd", "intel-gaudi", "google", "cpu");
  }

  @Test
  void rolesHaveReplicasParallelismAndScheduling() {
    for (String role : List.of("spec.decode", "spec.prefill")) {
      JsonNode replicas = at(ModelService.class, role + ".replicas");
      assertThat(replicas.path("minimum").asInt()).as(role).isZero();
      assertThat(replicas.path("default").asInt()).as(role).isEqualTo(1);
      assertThat(replicas.path("format").asText()).isEqualTo("int32");
      for (String degree : List.of("tensor", "data", "dataLocal")) {
        JsonNode node = at(ModelService.class, role + ".parallelism." + degree);
        assertThat(node.path("minimum").asInt()).as(role + " " + degree).isEqualTo(1);
        assertThat(node.path("default").asInt()).as(role + " " + degree).isEqualTo(1);
      }
      assertThat(at(ModelService.class, role + ".parallelism").path("properties").has("pipeline")).isFalse();
      assertThat(at(ModelService.class, role + ".parallelism").path("default").isObject()).as(role).isTrue();
      assertThat(at(ModelService.class, role + ".parallelism").path("default").isEmpty()).as(role).isTrue();
      assertThat(at(ModelService.class, role + ".resources.limits{}").path("x-kubernetes-int-or-string").asBoolean())
          .isTrue();
      assertThat(at(ModelService.class, role + ".nodeSelector{}").path("type").asText()).isEqualTo("string");
      assertThat(at(ModelService.class, role + ".annotations{}").path("type").asText()).isEqualTo("string");
      assertThat(at(ModelService.class, role + ".tolerations[].key").path("type").asText()).isEqualTo("string");
    }
  }

  @Test
  void routingProxyDefaults() {
    assertThat(at(ModelService.class, "spec.routingProxy.connector").path("default").asText()).isEqualTo("nixlv2");
    assertPort("spec.routingProxy.targetPort", 8200);
    assertThat(at(ModelService.class, "spec.routingProxy.secureProxy").path("type").asText()).isEqualTo("boolean");
    assertThat(at(ModelService.class, "spec.routingProxy.secureProxy").has("default")).isFalse();
    assertThat(at(ModelService.class, "spec.routingProxy.prefillerUseTLS").path("type").asText())
        .isEqualTo("boolean");
    for (String text : List.of("image", "zapEncoder", "zapLogLevel", "certPath")) {
      assertThat(at(ModelService.class, "spec.routingProxy." + text).path("type").asText()).isEqualTo("string");
    }
  }

  @Test
  void endpointPickerDefaults() {
    String epp = "spec.inferencePool.endpointPicker";
    assertPort(epp + ".port", 9002);
    assertThat(at(ModelService.class, epp + ".replicas").path("minimum").asInt()).isZero();
    assertThat(at(ModelService.class, epp + ".replicas").path("default").asInt()).isEqualTo(1);
    assertThat(texts(at(ModelService.class, epp + ".failureMode").path("enum")))
        .containsExactlyInAnyOrder("FailOpen", "FailClose");
    assertThat(at(ModelService.class, epp + ".failureMode").path("default").asText()).isEqualTo("FailOpen");
    assertThat(at(ModelService.class, epp + ".resources.requests{}").path("x-kubernetes-int-or-string").asBoolean())
        .isTrue();
  }

  @Test
  void httpRouteFollowsGatewayApiNaming() {
    JsonNode name = at(ModelService.class, "spec.httpRoute.gatewayRef.name");
    assertThat(name.path("minLength").asInt()).isEqualTo(1);
    assertThat(name.path("maxLength").asInt()).isEqualTo(253);
    JsonNode namespace = at(ModelService.class, "spec.httpRoute.gatewayRef.namespace");
    assertThat(namespace.path("maxLength").asInt()).isEqualTo(63);
    assertThat(namespace.path("pattern").asText()).isEqualTo("^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?$");
    assertThat(at(ModelService.class, "spec.httpRoute.hostnames").path("maxItems").asInt()).isEqualTo(16);
    JsonNode host = at(ModelService.class, "spec.httpRoute.hostnames[]");
    assertThat(host.path("minLength").asInt()).isEqualTo(1);
    assertThat(host.path("maxLength").asInt()).isEqualTo(253);
    assertThat(host.path("pattern").asText())
        .isEqualTo("^(\\*\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");
  }

  @Test
  void podMonitorDefaults() {
    String pm = "spec.monitoring.podMonitor";
    assertThat(at(ModelService.class, pm + ".enabled").path("default").isBoolean()).isTrue();
    assertThat(at(ModelService.class, pm + ".enabled").path("default").asBoolean()).isFalse();
    assertThat(at(ModelService.class, pm + ".portName").path("default").asText()).isEqualTo("http");
    assertThat(at(ModelService.class, pm + ".path").path("default").asText()).isEqualTo("/metrics");
    JsonNode interval = at(ModelService.class, pm + ".interval");
    assertThat(interval.path("default").asText()).isEqualTo("30s");
    java.util.regex.Pattern duration = java.util.regex.Pattern.compile(interval.path("pattern").asText());
    assertThat(List.of("30s", "1m30s", "500ms", "1h", "0")).allMatch(d -> duration.matcher(d).matches());
    assertThat(List.of("30", "30 s", "1.5m", "1 minute")).noneMatch(d -> duration.matcher(d).matches());
  }

  @Test
  void crossFieldRulesAreCel() {
    JsonNode rules = at(ModelService.class, "spec").path("x-kubernetes-validations");
    assertThat(rules.findValuesAsText("rule")).containsExactly(
        "!has(self.prefill) || has(self.routingProxy)",
        "!has(self.routingProxy) || !has(self.routingProxy.targetPort) || !has(self.engine.port)"
            + " || self.routingProxy.targetPort != self.engine.port");
    assertThat(rules.get(0).path("message").asText()).contains("spec.routingProxy").contains("spec.prefill");
    assertThat(rules.get(1).path("message").asText()).contains("spec.routingProxy.targetPort")
        .contains("spec.engine.port");
  }

  @Test
  void statusPhaseCountersAndConditions() {
    assertThat(texts(at(ModelService.class, "status.phase").path("enum")))
        .containsExactlyInAnyOrder("Pending", "Running", "Ready", "Failed");
    assertThat(at(ModelService.class, "status.observedGeneration").path("format").asText()).isEqualTo("int64");
    for (String counter : List.of("decodeReady", "decodeReplicas", "prefillReady", "prefillReplicas")) {
      assertThat(at(ModelService.class, "status." + counter).path("format").asText()).isEqualTo("int32");
    }
    JsonNode conditions = at(ModelService.class, "status.conditions");
    assertThat(conditions.path("x-kubernetes-list-type").asText()).isEqualTo("map");
    assertThat(texts(conditions.path("x-kubernetes-list-map-keys"))).containsExactly("type");
    assertThat(texts(at(ModelService.class, "status.conditions[].status").path("enum")))
        .containsExactlyInAnyOrder("True", "False", "Unknown");
  }

  private static void assertPort(String path, int defaultPort) {
    JsonNode port = at(ModelService.class, path);
    assertThat(port.path("minimum").asInt()).as(path).isEqualTo(1);
    assertThat(port.path("maximum").asInt()).as(path).isEqualTo(65535);
    assertThat(port.path("default").asInt()).as(path).isEqualTo(defaultPort);
    assertThat(port.path("format").asText()).as(path).isEqualTo("int32");
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
