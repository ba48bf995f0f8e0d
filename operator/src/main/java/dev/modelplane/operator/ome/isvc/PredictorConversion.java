package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.EngineSpec;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.ModelRef;
import dev.modelplane.api.ome.v1beta1.ModelSpec;
import dev.modelplane.api.ome.v1beta1.PredictorSpec;
import dev.modelplane.api.ome.v1beta1.RunnerSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeRef;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the deprecated {@code spec.predictor} form as the engine form: the predictor's pod and deployment settings
 * become the engine, its container {@code ome-container} (else the first one) the engine's runner, {@code workerSpec}
 * the engine's worker, {@code model.baseModel} and {@code model.fineTunedWeights} become {@code spec.model} and
 * {@code model.runtime} {@code spec.runtime}.
 *
 * <p>Upstream OME rewrites the stored object; here the conversion happens in memory on every reconcile, so the
 * user's manifest stays what they applied (no drift for GitOps tools) and the result is the same.
 */
final class PredictorConversion {
  /** The serving container's name in OME's runtimes. */
  static final String MAIN_CONTAINER = "ome-container";
  private static final KubernetesSerialization JSON = new KubernetesSerialization();

  private PredictorConversion() {
  }

  /** The spec with {@code predictor} converted; the spec itself when it has an engine or no predictor. */
  static InferenceServiceSpec effective(InferenceServiceSpec spec) {
    PredictorSpec predictor = spec.predictor();
    if (predictor == null || spec.engine() != null) {
      return spec;
    }
    EngineSpec engine = JSON.convertValue(withoutModel(predictor), EngineSpec.class);
    List<Container> containers = engine.getContainers() == null ? new ArrayList<>()
        : new ArrayList<>(engine.getContainers());
    int main = mainContainer(containers);
    if (main >= 0) {
      engine.setRunner(JSON.convertValue(containers.remove(main), RunnerSpec.class));
      engine.setContainers(containers.isEmpty() ? null : containers);
    }
    if (predictor.getWorkerSpec() != null) {
      engine.setWorker(predictor.getWorkerSpec());
    }
    ModelSpec model = predictor.getModel();
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
