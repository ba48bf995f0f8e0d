package dev.modelplane.api.gie;

import static dev.modelplane.api.testing.Crds.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.api.gie.v1alpha2.InferenceModelRewrite;
import dev.modelplane.api.gie.v1alpha2.InferenceObjective;
import dev.modelplane.api.testing.Crds;
import dev.modelplane.api.testing.SchemaValidator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The validation the Gateway API Inference Extension asks for, read back from the generated CRDs. */
class GieSchemaTest {
  @Test
  void inferencePoolNamesAndScope() {
    JsonNode spec = Crds.crd(InferencePool.class).path("spec");
    assertThat(spec.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(spec.path("names").path("shortNames").get(0).asText()).isEqualTo("infpool");
    assertThat(texts(spec.path("names").path("categories"))).contains("modelplane");
    assertThat(spec.path("versions").get(0).path("subresources").has("status")).isTrue();
  }

  @Test
  void inferencePoolPrinterColumns() {
    JsonNode columns = Crds.crd(InferencePool.class).path("spec").path("versions").get(0)
        .path("additionalPrinterColumns");
    assertThat(columns.findValuesAsText("name"))
        .containsExactly("Endpoint Picker", "Target Ports", "Selector", "Failure Mode", "Age");
    assertThat(columns.findValuesAsText("jsonPath")).containsExactly(".spec.endpointPickerRef.name",
        ".spec.targetPorts", ".spec.selector.matchLabels", ".spec.endpointPickerRef.failureMode",
        ".metadata.creationTimestamp");
    // The selector and failure mode only with -o wide (priority 1); the others always (0, or absent).
    List<Integer> priorities = new ArrayList<>();
    columns.forEach(c -> priorities.add(c.path("priority").asInt(0)));
    assertThat(priorities).containsExactly(0, 0, 1, 1, 0);
    assertThat(columns.get(4).path("type").asText()).isEqualTo("date");
  }

  @Test
  void targetPortsAreOneToEightUniquePortNumbers() {
    JsonNode ports = at(InferencePool.class, "spec.targetPorts");
    assertThat(ports.path("minItems").asInt()).isEqualTo(1);
    assertThat(ports.path("maxItems").asInt()).isEqualTo(8);
    assertThat(ports.path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
    assertThat(ports.path("x-kubernetes-validations").get(0).path("rule").asText())
        .isEqualTo("self.all(p1, self.exists_one(p2, p1.number==p2.number))");
    JsonNode number = at(InferencePool.class, "spec.targetPorts[].number");
    assertThat(number.path("minimum").asInt()).isEqualTo(1);
    assertThat(number.path("maximum").asInt()).isEqualTo(65535);
    assertThat(number.path("format").asText()).isEqualTo("int32");
    assertThat(texts(at(InferencePool.class, "spec").path("required")))
        .containsExactlyInAnyOrder("selector", "targetPorts");
  }

  @Test
  void aPoolNeedsASpecButNoEndpointPicker() throws java.io.IOException {
    assertThat(texts(Crds.schema(InferencePool.class).path("required"))).containsExactly("spec");
    assertThat(texts(at(InferencePool.class, "spec").path("required"))).doesNotContain("endpointPickerRef");
    assertThat(texts(at(InferencePool.class, "spec.endpointPickerRef").path("required"))).containsExactly("name");
    JsonNode pool = Crds.YAML.readTree("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata: {name: self-picked}
        spec:
          selector: {matchLabels: {app: vllm}}
          targetPorts: [{number: 8000}]
        """);
    assertThat(SchemaValidator.validate(Crds.schema(InferencePool.class), pool)).isEmpty();
    ((com.fasterxml.jackson.databind.node.ObjectNode) pool).remove("spec");
    assertThat(SchemaValidator.validate(Crds.schema(InferencePool.class), pool)).containsExactly("spec: Required value");
  }

  @Test
  void selectorIsAtMost64ValidLabels() {
    JsonNode labels = at(InferencePool.class, "spec.selector.matchLabels");
    assertThat(labels.path("maxProperties").asInt()).isEqualTo(64);
    JsonNode value = at(InferencePool.class, "spec.selector.matchLabels{}");
    assertThat(value.path("maxLength").asInt()).isEqualTo(63);
    assertThat(value.path("pattern").asText()).isEqualTo("^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$");
  }

  @Test
  void endpointPickerRefDefaultsAndRules() {
    JsonNode ref = at(InferencePool.class, "spec.endpointPickerRef");
    assertThat(ref.path("x-kubernetes-validations").get(0).path("rule").asText())
        .isEqualTo("self.kind != 'Service' || has(self.port)");
    assertThat(texts(at(InferencePool.class, "spec.endpointPickerRef.failureMode").path("enum")))
        .containsExactlyInAnyOrder("FailOpen", "FailClose");
    assertThat(at(InferencePool.class, "spec.endpointPickerRef.failureMode").path("default").asText())
        .isEqualTo("FailClose");
    assertThat(at(InferencePool.class, "spec.endpointPickerRef.kind").path("default").asText()).isEqualTo("Service");
    assertThat(at(InferencePool.class, "spec.endpointPickerRef.group").path("default").isTextual()).isTrue();
    assertThat(texts(at(InferencePool.class, "spec.appProtocol").path("enum")))
        .containsExactlyInAnyOrder("http", "kubernetes.io/h2c");
  }

  @Test
  void statusConditionsFollowMetav1Condition() {
    JsonNode conditions = at(InferencePool.class, "status.parents[].conditions");
    assertThat(conditions.path("maxItems").asInt()).isEqualTo(8);
    assertThat(conditions.path("x-kubernetes-list-type").asText()).isEqualTo("map");
    assertThat(texts(conditions.path("x-kubernetes-list-map-keys"))).containsExactly("type");
    assertThat(at(InferencePool.class, "status.parents[].conditions[].type").path("pattern").asText())
        .startsWith("^([a-z0-9]([-a-z0-9]*[a-z0-9])?");
    assertThat(at(InferencePool.class, "status.parents[].conditions[].reason").path("pattern").asText())
        .isEqualTo("^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$");
    assertThat(texts(at(InferencePool.class, "status.parents[].conditions[].status").path("enum")))
        .containsExactlyInAnyOrder("True", "False", "Unknown");
    assertThat(at(InferencePool.class, "status.parents").path("maxItems").asInt()).isEqualTo(32);
  }

  @Test
  void inferenceObjectiveRequiresAPoolRef() {
    assertThat(texts(at(InferenceObjective.class, "spec").path("required"))).containsExactly("poolRef");
    assertThat(texts(at(InferenceObjective.class, "spec.poolRef").path("required"))).containsExactly("name");
    assertThat(at(InferenceObjective.class, "spec.poolRef.kind").path("pattern").asText())
        .isEqualTo("^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$");
    assertThat(at(InferenceObjective.class, "spec.poolRef.group").path("default").asText())
        .isEqualTo("inference.networking.k8s.io");
    assertThat(at(InferenceObjective.class, "spec.poolRef.name").path("maxLength").asInt()).isEqualTo(253);
    assertThat(at(InferenceObjective.class, "status.conditions").path("default").get(0).path("reason").asText())
        .isEqualTo("Pending");
    JsonNode columns = Crds.crd(InferenceObjective.class).path("spec").path("versions").get(0)
        .path("additionalPrinterColumns");
    assertThat(columns.findValuesAsText("name")).containsExactly("Inference Pool", "Priority", "Age");
  }

  @Test
  void inferenceModelRewriteRulesMatchExactNamesAndWeighTargets() {
    assertThat(texts(at(InferenceModelRewrite.class, "spec").path("required")))
        .containsExactlyInAnyOrder("poolRef", "rules");
    assertThat(texts(at(InferenceModelRewrite.class, "spec.poolRef").path("required"))).containsExactly("name");
    assertThat(at(InferenceModelRewrite.class, "spec.poolRef.kind").path("default").asText())
        .isEqualTo("InferencePool");
    assertThat(at(InferenceModelRewrite.class, "spec.rules[]").path("required").isMissingNode()).isTrue();
    assertThat(texts(at(InferenceModelRewrite.class, "spec.rules[].matches[]").path("required")))
        .containsExactly("model");
    JsonNode model = at(InferenceModelRewrite.class, "spec.rules[].matches[].model");
    assertThat(texts(model.path("required"))).containsExactly("value");
    assertThat(texts(model.path("properties").path("type").path("enum"))).containsExactly("Exact");
    assertThat(model.path("properties").path("type").path("default").asText()).isEqualTo("Exact");
    assertThat(model.path("properties").path("value").path("minLength").asInt()).isEqualTo(1);
    assertThat(at(InferenceModelRewrite.class, "spec.rules[].targets").path("minItems").asInt()).isEqualTo(1);
    assertThat(texts(at(InferenceModelRewrite.class, "spec.rules[].targets[]").path("required")))
        .containsExactly("modelRewrite");
    JsonNode weight = at(InferenceModelRewrite.class, "spec.rules[].targets[].weight");
    assertThat(weight.path("minimum").asInt()).isEqualTo(1);
    assertThat(weight.path("maximum").asInt()).isEqualTo(1_000_000);
    assertThat(weight.path("format").asText()).isEqualTo("int32");
  }

  @Test
  void inferenceModelRewriteStartsPendingAcceptance() {
    JsonNode conditions = at(InferenceModelRewrite.class, "status.conditions");
    assertThat(conditions.path("maxItems").asInt()).isEqualTo(8);
    assertThat(conditions.path("x-kubernetes-list-type").asText()).isEqualTo("map");
    JsonNode first = conditions.path("default").get(0);
    assertThat(List.of(first.path("type").asText(), first.path("status").asText(), first.path("reason").asText()))
        .containsExactly("Accepted", "Unknown", "Pending");
    JsonNode spec = Crds.crd(InferenceModelRewrite.class).path("spec");
    assertThat(spec.path("scope").asText()).isEqualTo("Namespaced");
    assertThat(spec.path("versions").get(0).path("subresources").has("status")).isTrue();
    assertThat(spec.path("versions").get(0).path("additionalPrinterColumns").findValuesAsText("name"))
        .containsExactly("Inference Pool", "Age");
  }

  static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
