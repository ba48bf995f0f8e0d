package dev.modelplane.cli.user;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * The kinds {@code list} and {@code status} show, with how each says where it stands.
 *
 * @param apiVersion group/version
 * @param kind the kind
 * @param shortName the name shown in tables (group-qualified where two families share a kind)
 * @param namespaced whether objects live in a namespace
 */
public record ModelplaneKind(String apiVersion, String kind, String shortName, boolean namespaced) {
  static final String LLMKUBE = "inference.llmkube.dev/v1alpha1";
  static final String OME = "ome.io/v1beta1";
  static final String POOL = "inference.networking.k8s.io/v1";

  /** Every kind, in the order tables list them. */
  static final List<ModelplaneKind> ALL = List.of(
      new ModelplaneKind(LLMKUBE, "InferenceService", "inferenceservice.llmkube", true),
      new ModelplaneKind(LLMKUBE, "Model", "model.llmkube", true),
      new ModelplaneKind(OME, "InferenceService", "inferenceservice.ome", true),
      new ModelplaneKind(OME, "BaseModel", "basemodel.ome", true),
      new ModelplaneKind(OME, "ClusterBaseModel", "clusterbasemodel.ome", false),
      new ModelplaneKind(OME, "ServingRuntime", "servingruntime.ome", true),
      new ModelplaneKind(OME, "ClusterServingRuntime", "clusterservingruntime.ome", false),
      new ModelplaneKind(OME, "FineTunedWeight", "finetunedweight.ome", false),
      new ModelplaneKind(OME, "BenchmarkJob", "benchmarkjob.ome", true),
      new ModelplaneKind("model.otterscale.io/v1alpha1", "ModelService", "modelservice.otterscale", true),
      new ModelplaneKind(POOL, "InferencePool", "inferencepool", true),
      new ModelplaneKind("inference.networking.x-k8s.io/v1alpha2", "InferenceObjective", "inferenceobjective", true));

  /** A one-word state: the phase, OME's state, the Ready condition, or {@code -}. */
  static String state(JsonNode object) {
    JsonNode status = object.path("status");
    if (status.hasNonNull("phase")) {
      return status.get("phase").asText();
    }
    if (status.hasNonNull("state")) {
      return status.get("state").asText();
    }
    JsonNode ready = condition(object, "Ready");
    if (ready != null) {
      return "True".equals(ready.path("status").asText()) ? "Ready" : "NotReady";
    }
    return "-";
  }

  /** The condition of {@code type}, or null. */
  static JsonNode condition(JsonNode object, String type) {
    for (JsonNode c : object.path("status").path("conditions")) {
      if (type.equals(c.path("type").asText())) {
        return c;
      }
    }
    return null;
  }

  /** A short detail for wide tables: the first condition that is not fine, else the Ready message. */
  static String detail(JsonNode object) {
    for (JsonNode c : object.path("status").path("conditions")) {
      boolean bad = ("Degraded".equals(c.path("type").asText()) && "True".equals(c.path("status").asText()))
          || ("Ready".equals(c.path("type").asText()) && "False".equals(c.path("status").asText()));
      if (bad && !c.path("message").asText("").isEmpty()) {
        return c.path("reason").asText() + ": " + c.path("message").asText();
      }
    }
    return "";
  }
}
