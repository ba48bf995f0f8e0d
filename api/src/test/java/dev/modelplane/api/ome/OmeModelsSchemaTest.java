package dev.modelplane.api.ome;

import static dev.modelplane.api.testing.Crds.at;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.testing.Crds;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The validation OME's BaseModel, ClusterBaseModel, FineTunedWeight and BenchmarkJob ask for, read back from the
 * generated CRDs, and the full manifests of these kinds checked against them.
 */
class OmeModelsSchemaTest {
  private static final List<Class<? extends HasMetadata>> KINDS =
      List.of(BaseModel.class, ClusterBaseModel.class, FineTunedWeight.class, BenchmarkJob.class);
  private static final List<Class<? extends HasMetadata>> MODEL_KINDS =
      List.of(BaseModel.class, ClusterBaseModel.class, FineTunedWeight.class);
  private static final String LIFECYCLE_STATES = "Creating Failed Importing In_Training In_Transit Ready";

  @Test
  void namesScopesAndSubresources() {
    assertThat(scope(BaseModel.class)).isEqualTo("Namespaced");
    assertThat(scope(ClusterBaseModel.class)).isEqualTo("Cluster");
    assertThat(scope(FineTunedWeight.class)).isEqualTo("Cluster");
    assertThat(scope(BenchmarkJob.class)).isEqualTo("Namespaced");
    for (Class<? extends HasMetadata> kind : KINDS) {
      JsonNode spec = Crds.crd(kind).path("spec");
      assertThat(spec.path("group").asText()).isEqualTo("ome.io");
      assertThat(spec.path("versions").get(0).path("name").asText()).isEqualTo("v1beta1");
      assertThat(spec.path("versions").get(0).path("subresources").has("status")).as(kind.getSimpleName()).isTrue();
      assertThat(spec.path("versions").get(0).path("subresources").has("scale")).isFalse();
      assertThat(texts(spec.path("names").path("categories"))).containsExactly("modelplane");
      assertThat(spec.path("names").has("shortNames")).as("upstream defines no short names").isFalse();
    }
    assertThat(Crds.crd(FineTunedWeight.class).path("spec").path("names").path("plural").asText())
        .isEqualTo("finetunedweights");
  }

  @Test
  void printerColumnsFollowUpstreamOrder() {
    List<String> modelColumns = List.of("Disabled", "Version", "Vendor", "Framework", "FrameworkVersion",
        "ModelFormat", "Architecture", "Capabilities", "Size", "CompartmentID", "Ready", "Age");
    assertThat(columns(BaseModel.class).findValuesAsText("name")).containsExactlyElementsOf(modelColumns);
    assertThat(columns(ClusterBaseModel.class).findValuesAsText("name")).containsExactlyElementsOf(modelColumns);
    assertThat(columns(BaseModel.class).findValuesAsText("jsonPath")).contains(".spec.modelCapabilities[*]",
        ".status.state", ".metadata.creationTimestamp");
    assertThat(columns(BaseModel.class).get(0).path("type").asText()).isEqualTo("boolean");
    assertThat(columns(FineTunedWeight.class).findValuesAsText("name"))
        .containsExactly("Disabled", "Version", "Vendor", "CompartmentID", "ModelType", "Ready", "Age");
    assertThat(columns(BenchmarkJob.class).findValuesAsText("name")).containsExactly("Age", "Status");
    assertThat(columns(BenchmarkJob.class).findValuesAsText("jsonPath"))
        .containsExactly(".metadata.creationTimestamp", ".status.state");
  }

  @Test
  void storageRequiresAUriAndKnowsTwoDownloadPolicies() {
    for (Class<? extends HasMetadata> kind : MODEL_KINDS) {
      assertThat(texts(at(kind, "spec.storage").path("required"))).containsExactly("storageUri");
      assertThat(texts(at(kind, "spec.storage.downloadPolicy").path("enum")))
          .containsExactlyInAnyOrder("AlwaysDownload", "ReuseIfExists");
      assertThat(at(kind, "spec.storage.downloadPolicy").has("default")).isFalse();
      assertThat(at(kind, "spec.storage.nodeSelector").path("x-kubernetes-map-type").asText()).isEqualTo("atomic");
      assertThat(at(kind, "spec.storage.nodeSelector{}").path("type").asText()).isEqualTo("string");
      assertThat(at(kind, "spec.storage.parameters{}").path("type").asText()).isEqualTo("string");
    }
    for (String storage : List.of("spec.dataset", "spec.outputLocation")) {
      assertThat(texts(at(BenchmarkJob.class, storage).path("required"))).containsExactly("storageUri");
      assertThat(texts(at(BenchmarkJob.class, storage + ".downloadPolicy").path("enum")))
          .containsExactlyInAnyOrder("AlwaysDownload", "ReuseIfExists");
    }
  }

  @Test
  void storageUriMustStartWithAKnownScheme() {
    List<String> paths = new ArrayList<>();
    MODEL_KINDS.forEach(kind -> paths.add(kind.getSimpleName() + " spec.storage.storageUri"));
    paths.add("BenchmarkJob spec.dataset.storageUri");
    paths.add("BenchmarkJob spec.outputLocation.storageUri");
    String message = "storageUri must start with one of oci://, pvc://, hf://, s3://, az://, gs://, github://, "
        + "local:// or vendor://";
    for (String path : paths) {
      Class<? extends HasMetadata> kind = KINDS.stream()
          .filter(k -> k.getSimpleName().equals(path.substring(0, path.indexOf(' ')))).findFirst().orElseThrow();
      JsonNode uri = at(kind, path.substring(path.indexOf(' ') + 1));
      assertThat(uri.path("x-kubernetes-validations")).as(path).hasSize(1);
      assertThat(uri.path("x-kubernetes-validations").get(0).path("message").asText()).as(path).isEqualTo(message);
    }
    // The rule is a prefix test over a literal list; evaluate it here the way CEL would.
    String rule = rules(at(BaseModel.class, "spec.storage.storageUri")).get(0);
    assertThat(rule).endsWith("].exists(p, self.startsWith(p))");
    List<String> prefixes = new ArrayList<>();
    java.util.regex.Matcher quoted = java.util.regex.Pattern.compile("'([^']*)'").matcher(rule);
    while (quoted.find()) {
      prefixes.add(quoted.group(1));
    }
    assertThat(prefixes).containsExactly("oci://", "pvc://", "hf://", "s3://", "az://", "gs://", "github://",
        "local://", "vendor://");
    Predicate<String> accepted = uri -> prefixes.stream().anyMatch(uri::startsWith);
    assertThat(Stream.of("hf://meta-llama/Llama-3.1-8B-Instruct", "oci://n/t/b/m/o/x", "pvc://ns:claim/x",
        "s3://b@eu-west-1/x", "az://a/c/b", "gs://b/o", "github://o/r@v1", "local:///models/x", "vendor://v/t/p"))
        .allMatch(accepted);
    assertThat(Stream.of("", "meta-llama/Llama-3.1-8B", "HF://org/model", "https://huggingface.co/org/model",
        " hf://org/model", "ftp://host/x", "hf:/org/model")).noneMatch(accepted);
  }

  @Test
  void storageNodeAffinityKeepsCoreV1Rules() {
    String required = "spec.storage.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution";
    String preferred = "spec.storage.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution";
    for (Class<? extends HasMetadata> kind : MODEL_KINDS) {
      assertThat(texts(at(kind, required).path("required"))).containsExactly("nodeSelectorTerms");
      assertThat(at(kind, required + ".nodeSelectorTerms").path("x-kubernetes-list-type").asText())
          .isEqualTo("atomic");
      for (String list : List.of(".nodeSelectorTerms[].matchExpressions", ".nodeSelectorTerms[].matchFields")) {
        assertThat(at(kind, required + list).path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
        assertThat(texts(at(kind, required + list + "[]").path("required")))
            .containsExactlyInAnyOrder("key", "operator");
        assertThat(at(kind, required + list + "[].values").path("x-kubernetes-list-type").asText())
            .isEqualTo("atomic");
      }
      assertThat(at(kind, preferred).path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
      assertThat(texts(at(kind, preferred + "[]").path("required")))
          .containsExactlyInAnyOrder("preference", "weight");
      assertThat(at(kind, preferred + "[].weight").path("format").asText()).isEqualTo("int32");
      assertThat(texts(at(kind, preferred + "[].preference.matchExpressions[]").path("required")))
          .containsExactlyInAnyOrder("key", "operator");
    }
  }

  @Test
  void modelStatusHasARequiredLifecycleState() {
    for (Class<? extends HasMetadata> kind : MODEL_KINDS) {
      assertThat(texts(at(kind, "status").path("required"))).containsExactly("state");
      assertThat(texts(at(kind, "status.state").path("enum")))
          .containsExactlyInAnyOrder(LIFECYCLE_STATES.split(" "));
      assertThat(at(kind, "status.lifecycle").path("type").asText()).isEqualTo("string");
      assertThat(at(kind, "status.nodesReady").path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
      assertThat(at(kind, "status.nodesFailed").path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
    }
  }

  @Test
  void baseModelSpec() {
    for (Class<? extends HasMetadata> kind : List.of(BaseModel.class, ClusterBaseModel.class)) {
      assertThat(texts(at(kind, "spec").path("required"))).containsExactly("storage");
      assertThat(texts(at(kind, "spec.modelFormat").path("required"))).containsExactly("name");
      assertThat(at(kind, "spec.modelFormat.operator").path("default").asText()).isEqualTo("Equal");
      assertThat(at(kind, "spec.modelFormat.weight").path("default").asInt()).isEqualTo(1);
      assertThat(at(kind, "spec.modelFormat.weight").path("format").asText()).isEqualTo("int64");
      assertThat(texts(at(kind, "spec.modelFramework").path("required"))).containsExactly("name");
      assertThat(at(kind, "spec.modelFramework.weight").path("default").asInt()).isEqualTo(1);
      assertThat(at(kind, "spec.maxTokens").path("format").asText()).isEqualTo("int32");
      for (String list : List.of("modelCapabilities", "apiCapabilities", "servingMode")) {
        assertThat(at(kind, "spec." + list).path("x-kubernetes-list-type").asText()).isEqualTo("atomic");
      }
      assertFreeForm(at(kind, "spec.modelConfiguration"));
      assertThat(at(kind, "spec.diffusionPipeline.additionalComponents").path("x-kubernetes-map-type").asText())
          .isEqualTo("atomic");
      assertThat(at(kind, "spec.diffusionPipeline.additionalComponents{}.library").path("type").asText())
          .isEqualTo("string");
    }
    assertThat(at(BaseModel.class, "spec").toString()).isEqualTo(at(ClusterBaseModel.class, "spec").toString());
    assertThat(at(BaseModel.class, "status").toString()).isEqualTo(at(ClusterBaseModel.class, "status").toString());
  }

  @Test
  void fineTunedWeightSpec() {
    assertThat(texts(at(FineTunedWeight.class, "spec").path("required")))
        .containsExactlyInAnyOrder("baseModelRef", "modelType", "hyperParameters", "storage");
    assertThat(texts(at(FineTunedWeight.class, "spec.baseModelRef").path("required"))).containsExactly("name");
    assertThat(texts(at(FineTunedWeight.class, "spec.trainingJobRef").path("required"))).containsExactly("name");
    assertFreeForm(at(FineTunedWeight.class, "spec.hyperParameters"));
    assertFreeForm(at(FineTunedWeight.class, "spec.configuration"));
  }

  @Test
  void benchmarkJobRequiredFieldsEnumsAndBounds() {
    assertThat(texts(at(BenchmarkJob.class, "spec").path("required"))).containsExactlyInAnyOrder(
        "endpoint", "task", "maxTimePerIteration", "maxRequestsPerIteration", "outputLocation");
    assertThat(texts(at(BenchmarkJob.class, "spec.task").path("enum"))).containsExactlyInAnyOrder(
        "text-to-text", "image-to-text", "text-to-embeddings", "image-to-embeddings", "text-to-rerank",
        "text-to-speech");
    for (String limit : List.of("spec.maxTimePerIteration", "spec.maxRequestsPerIteration")) {
      assertThat(at(BenchmarkJob.class, limit).path("type").asText()).isEqualTo("integer");
      assertThat(at(BenchmarkJob.class, limit).path("minimum").asInt()).isEqualTo(1);
    }
    JsonNode scenarios = at(BenchmarkJob.class, "spec.trafficScenarios");
    assertThat(scenarios.path("x-kubernetes-list-type").asText()).isEqualTo("set");
    assertThat(scenarios.path("maxItems").asInt()).isEqualTo(64);
    assertThat(at(BenchmarkJob.class, "spec.trafficScenarios[]").path("maxLength").asInt()).isEqualTo(64);
    assertThat(at(BenchmarkJob.class, "spec.numConcurrency").path("x-kubernetes-list-type").asText())
        .isEqualTo("set");
    assertThat(at(BenchmarkJob.class, "spec.numConcurrency[]").path("minimum").asInt()).isEqualTo(1);
    assertThat(at(BenchmarkJob.class, "spec.additionalRequestParams{}").path("type").asText()).isEqualTo("string");
    assertThat(texts(at(BenchmarkJob.class, "spec.huggingFaceSecretReference").path("required")))
        .containsExactly("name");
    JsonNode metadata = at(BenchmarkJob.class, "spec.serviceMetadata");
    assertThat(texts(metadata.path("required")))
        .containsExactlyInAnyOrder("engine", "version", "gpuType", "gpuCount");
    assertThat(texts(at(BenchmarkJob.class, "spec.serviceMetadata.engine").path("enum")))
        .containsExactlyInAnyOrder("vLLM", "SGLang", "TGI");
    assertThat(texts(at(BenchmarkJob.class, "spec.serviceMetadata.gpuType").path("enum")))
        .containsExactlyInAnyOrder("H100", "A100", "MI300", "A10");
    assertThat(at(BenchmarkJob.class, "spec.serviceMetadata.gpuCount").path("minimum").asInt()).isEqualTo(1);
    assertThat(texts(at(BenchmarkJob.class, "status").path("required"))).containsExactly("state");
    assertThat(texts(at(BenchmarkJob.class, "status.state").path("enum")))
        .containsExactlyInAnyOrder("Pending", "Running", "Completed", "Failed");
    for (String time : List.of("startTime", "completionTime", "lastReconcileTime")) {
      assertThat(at(BenchmarkJob.class, "status." + time).path("format").asText()).isEqualTo("date-time");
    }
    assertThat(at(BenchmarkJob.class, "status.results").path("x-kubernetes-list-type").asText())
        .isEqualTo("atomic");
    for (String number : List.of("errorRate", "durationSeconds", "requestsPerSecond", "outputTokensPerSecond",
        "inputTokensPerSecond", "ttftSeconds.p99", "e2eLatencySeconds.p50")) {
      assertThat(at(BenchmarkJob.class, "status.results[]." + number).path("type").asText()).as(number)
          .isEqualTo("number");
    }
    assertThat(at(BenchmarkJob.class, "status.resultsOmitted").path("type").asText()).isEqualTo("integer");
  }

  @Test
  void benchmarkEndpointIsExactlyOneOfServiceUrlOrPool() {
    JsonNode endpoint = at(BenchmarkJob.class, "spec.endpoint");
    assertThat(rules(endpoint)).containsExactly("[has(self.inferenceService), has(self.endpoint), "
        + "has(self.inferencePool)].filter(x, x).size() == 1");
    assertThat(texts(at(BenchmarkJob.class, "spec.endpoint.inferenceService").path("required")))
        .containsExactlyInAnyOrder("name", "namespace");
    assertThat(rules(at(BenchmarkJob.class, "spec.endpoint.inferenceService.apiGroup")))
        .containsExactly("self in ['ome.io', 'inference.llmkube.dev']");
    assertThat(texts(at(BenchmarkJob.class, "spec.endpoint.inferencePool").path("required")))
        .containsExactlyInAnyOrder("name", "namespace");
    assertThat(at(BenchmarkJob.class, "spec.endpoint.inferencePool.routerUrl").path("pattern").asText())
        .isEqualTo("^(http|https)://");
    assertThat(texts(at(BenchmarkJob.class, "spec.endpoint.endpoint").path("required")))
        .containsExactlyInAnyOrder("url", "apiFormat");
    assertThat(at(BenchmarkJob.class, "spec.endpoint.endpoint.url").path("pattern").asText())
        .isEqualTo("^(http|https)://");
    assertThat(texts(at(BenchmarkJob.class, "spec.endpoint.endpoint.apiFormat").path("enum")))
        .containsExactlyInAnyOrder("openai", "oci-cohere", "cohere");
  }

  @Test
  void benchmarkCrossFieldRules() {
    List<String> specRules = rules(at(BenchmarkJob.class, "spec"));
    assertThat(specRules).hasSize(6);
    assertThat(specRules.get(0)).isEqualTo("self.task.startsWith('text-to-') || has(self.dataset)");
    assertThat(specRules.get(1)).startsWith("self.task != 'text-to-text' || !has(self.trafficScenarios)")
        .contains("D[(][0-9]+,[0-9]+[)]", "N[(][0-9]+,[0-9]+[)]/[(][0-9]+,[0-9]+[)]", "|dataset)$'");
    assertThat(specRules.get(2)).contains("'text-to-embeddings'", "E[(][0-9]+[)]");
    assertThat(specRules.get(3)).contains("image-to-", "I[(][0-9]+,[0-9]+(,[0-9]+)?[)]");
    assertThat(specRules.get(4)).contains("'text-to-rerank'", "R[(][0-9]+,[0-9]+[)]");
    assertThat(specRules.get(5)).contains("'text-to-speech'", "A[(][0-9]+[)]");
    for (JsonNode rule : at(BenchmarkJob.class, "spec").path("x-kubernetes-validations")) {
      if (rule.path("rule").asText().contains("trafficScenarios")) {
        assertThat(rule.path("messageExpression").asText()).as(rule.path("rule").asText())
            .startsWith("'trafficScenarios entry \"' + self.trafficScenarios.filter(s, !s.matches(");
      }
    }
    assertThat(rules(at(BenchmarkJob.class, "spec.additionalRequestParams"))).containsExactly(
        "!('ignore_eos' in self) || self['ignore_eos'] in ['true', 'false']",
        "!('temperature' in self) "
            + "|| self['temperature'].matches('^[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?$')");
  }

  @Test
  void scenarioPatternsAcceptTheDocumentedFormsOnly() {
    // The CEL rules' regular expressions, checked here with java.util.regex (RE2 and Java agree on these).
    List<String> specRules = rules(at(BenchmarkJob.class, "spec"));
    Predicate<String> text = regex(specRules.get(1));
    Predicate<String> embeddings = regex(specRules.get(2));
    Predicate<String> image = regex(specRules.get(3));
    assertThat(Stream.of("D(100,100)", "N(480,240)/(300,150)", "U(50,500)/(20,200)", "U(1000,200)", "dataset"))
        .allMatch(text);
    assertThat(Stream.of("D(100)", "N(480,240)", "E(64)", "I(512,512)", "D(100,100) ", "xD(1,1)"))
        .noneMatch(text);
    assertThat(Stream.of("E(64)", "E(1024)", "dataset")).allMatch(embeddings);
    assertThat(Stream.of("E(64,64)", "D(1,1)")).noneMatch(embeddings);
    assertThat(Stream.of("I(512,512)", "I(1024,512,2)", "dataset")).allMatch(image);
    assertThat(Stream.of("I(512)", "E(64)", "I(1,2,3,4)")).noneMatch(image);
    Predicate<String> rerank = regex(specRules.get(4));
    assertThat(Stream.of("R(1024,100)", "dataset")).allMatch(rerank);
    assertThat(Stream.of("R(1024)", "D(1,1)", "R(1,2,3)")).noneMatch(rerank);
    Predicate<String> speech = regex(specRules.get(5));
    assertThat(Stream.of("A(100)", "dataset")).allMatch(speech);
    assertThat(Stream.of("A(1,2)", "E(100)", "A()")).noneMatch(speech);
    Predicate<String> number = regex(rules(at(BenchmarkJob.class, "spec.additionalRequestParams")).get(1));
    assertThat(Stream.of("0", "0.7", "1.", ".5", "-1e-3", "+2E5")).allMatch(number);
    assertThat(Stream.of("", "warm", "1.2.3", "0,7")).noneMatch(number);
  }

  @Test
  void podOverrideEmbedsKubernetesTypes() {
    assertThat(at(BenchmarkJob.class, "spec.podOverride.env").path("x-kubernetes-list-type").asText())
        .isEqualTo("map");
    assertThat(texts(at(BenchmarkJob.class, "spec.podOverride.env").path("x-kubernetes-list-map-keys")))
        .containsExactly("name");
    assertThat(texts(at(BenchmarkJob.class, "spec.podOverride.env[]").path("required"))).containsExactly("name");
    assertThat(texts(at(BenchmarkJob.class, "spec.podOverride.volumeMounts").path("x-kubernetes-list-map-keys")))
        .containsExactly("mountPath");
    assertThat(texts(at(BenchmarkJob.class, "spec.podOverride.volumeMounts[]").path("required")))
        .containsExactlyInAnyOrder("name", "mountPath");
    for (String list : List.of("envFrom", "tolerations", "volumes")) {
      assertThat(at(BenchmarkJob.class, "spec.podOverride." + list).path("x-kubernetes-list-type").asText())
          .isEqualTo("atomic");
    }
    assertThat(at(BenchmarkJob.class, "spec.podOverride.resources.limits{}").path("x-kubernetes-int-or-string")
        .asBoolean()).isTrue();
    assertThat(at(BenchmarkJob.class, "spec.podOverride.affinity.nodeAffinity").isObject()).isTrue();
    assertThat(at(BenchmarkJob.class, "spec.podOverride.volumes[].persistentVolumeClaim.claimName").isObject())
        .isTrue();
  }


  /** Subtrees that are fabric8's Kubernetes model, not ours. */
  private static boolean embedded(String path) {
    return path.endsWith(".nodeAffinity") || path.startsWith("spec.podOverride.") && !path.equals(
        "spec.podOverride.image") && !path.startsWith("spec.podOverride.nodeSelector");
  }

  private static Predicate<String> regex(String rule) {
    int start = rule.indexOf("matches('") + "matches('".length();
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(rule.substring(start, rule.indexOf("')", start)));
    return s -> pattern.matcher(s).find();
  }

  private static void assertFreeForm(JsonNode schema) {
    assertThat(schema.path("type").asText()).isEqualTo("object");
    assertThat(schema.path("x-kubernetes-preserve-unknown-fields").asBoolean()).isTrue();
    assertThat(schema.has("properties")).isFalse();
  }

  private static String scope(Class<? extends HasMetadata> kind) {
    return Crds.crd(kind).path("spec").path("scope").asText();
  }

  private static JsonNode columns(Class<? extends HasMetadata> kind) {
    return Crds.crd(kind).path("spec").path("versions").get(0).path("additionalPrinterColumns");
  }

  private static List<String> rules(JsonNode schema) {
    List<String> out = new ArrayList<>();
    schema.path("x-kubernetes-validations").forEach(r -> out.add(r.path("rule").asText()));
    return out;
  }

  private static List<String> texts(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
