package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.EngineSpec;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.ModelRef;
import dev.modelplane.api.ome.v1beta1.ModelSpec;
import dev.modelplane.api.ome.v1beta1.PredictorSpec;
import dev.modelplane.api.ome.v1beta1.RunnerSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeRef;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the deprecated {@code spec.predictor} form as the engine form: the predictor's pod and deployment settings
 * become the engine, its container {@code ome-container} (else the first one) the engine's runner, {@code workerSpec}
 * the engine's worker, {@code model.baseModel} and {@code model.fineTunedWeights} become {@code spec.model} and
 * {@code model.runtime} {@code spec.runtime}. The container fields of {@code model} (image, command, args, env,
 * resources, ...) fill in what the runner leaves unset, its {@code env} is appended to the runner's, and
 * {@code model.storageUri} and {@code model.protocolVersion} become the runner's {@code STORAGE_URI} and
 * {@code PROTOCOL_VERSION} variables, as OME's migration keeps them. Without a predictor container the model's
 * container fields are the runner, named {@code ome-container} when unnamed (OME drops an unnamed one).
 *
 * <p>Upstream OME rewrites the stored object; here the conversion happens in memory on every reconcile, so the
 * user's manifest stays what they applied (no drift for GitOps tools) and the result is the same.
 */
public final class PredictorConversion {
  /** The serving container's name in OME's runtimes. */
  static final String MAIN_CONTAINER = "ome-container";
  /** The runner variable holding {@code model.storageUri}. */
  static final String STORAGE_URI = "STORAGE_URI";
  /** The runner variable holding {@code model.protocolVersion}; a BenchmarkJob reads its backend from it. */
  public static final String PROTOCOL_VERSION = "PROTOCOL_VERSION";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  /** Fields of {@code predictor.model} that are not container fields. */
  private static final List<String> MODEL_ONLY_FIELDS = List.of("runtime", "baseModel", "fineTunedWeights",
      "storageUri", "runtimeVersion", "protocolVersion");

  private PredictorConversion() {
  }

  /** The spec with {@code predictor} converted; the spec itself when it has an engine or no predictor. */
  public static InferenceServiceSpec effective(InferenceServiceSpec spec) {
    PredictorSpec predictor = spec.predictor();
    if (predictor == null || spec.engine() != null) {
      return spec;
    }
    EngineSpec engine = JSON.convertValue(withoutModel(predictor), EngineSpec.class);
    List<Container> containers = engine.getContainers() == null ? new ArrayList<>()
        : new ArrayList<>(engine.getContainers());
    int main = mainContainer(containers);
    ModelSpec model = predictor.getModel();
    ObjectNode runner = main >= 0 ? JSON.convertValue(containers.remove(main), ObjectNode.class)
        : JsonNodeFactory.instance.objectNode();
    if (main >= 0) {
      engine.setContainers(containers.isEmpty() ? null : containers);
    }
    if (model != null) {
      fillFromModel(runner, model);
    }
    if (!runner.isEmpty()) {
      if (!runner.hasNonNull("name")) {
        runner.put("name", MAIN_CONTAINER);
      }
      engine.setRunner(JSON.convertValue(runner, RunnerSpec.class));
    }
    if (predictor.getWorkerSpec() != null) {
      engine.setWorker(predictor.getWorkerSpec());
    }
    ModelRef modelRef = spec.model();
    ServingRuntimeRef runtimeRef = spec.runtime();
    if (model != null) {
      if (modelRef == null && model.getBaseModel() != null) {
        modelRef = new ModelRef(model.getBaseModel(), null, null, model.getFineTunedWeights());
      }
      if (runtimeRef == null && model.getRuntime() != null) {
        runtimeRef = new ServingRuntimeRef(model.getRuntime(), null, null);
      }
    }
    return new InferenceServiceSpec(null, engine, spec.decoder(), modelRef, runtimeRef, spec.router(),
        spec.kedaConfig(), spec.acceleratorSelector());
  }

  /** The model's container fields where the runner has none, its env after the runner's, and OME's two variables. */
  private static void fillFromModel(ObjectNode runner, ModelSpec model) {
    ObjectNode fields = JSON.convertValue(model, ObjectNode.class);
    MODEL_ONLY_FIELDS.forEach(fields::remove);
    JsonNode modelEnv = fields.remove("env");
    fields.fields().forEachRemaining(f -> {
      if (!runner.hasNonNull(f.getKey())) {
        runner.set(f.getKey(), f.getValue());
      }
    });
    ArrayNode env = runner.get("env") instanceof ArrayNode a ? a : runner.putArray("env");
    if (modelEnv instanceof ArrayNode a) {
      a.forEach(env::add);
    }
    addEnv(env, STORAGE_URI, model.getStorageUri());
    addEnv(env, PROTOCOL_VERSION, model.getProtocolVersion());
    if (env.isEmpty()) {
      runner.remove("env");
    }
  }

  private static void addEnv(ArrayNode env, String name, String value) {
    if (value == null || value.isBlank()) {
      return;
    }
    for (JsonNode e : env) {
      if (name.equals(e.path("name").asText())) {
        return; // set explicitly: the container's own value stands
      }
    }
    env.addObject().put("name", name).put("value", value);
  }

  private static PredictorSpec withoutModel(PredictorSpec predictor) {
    PredictorSpec copy = JSON.convertValue(predictor, PredictorSpec.class);
    copy.setModel(null);
    copy.setWorkerSpec(null);
    return copy;
  }

  private static int mainContainer(List<Container> containers) {
    for (int i = 0; i < containers.size(); i++) {
      if (MAIN_CONTAINER.equals(containers.get(i).getName())) {
        return i;
      }
    }
    return containers.isEmpty() ? -1 : 0;
  }
}
