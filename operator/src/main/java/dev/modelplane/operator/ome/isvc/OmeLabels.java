package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.InferenceService;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The labels and annotations OME puts on every object and pod of an InferenceService component, with OME's keys:
 * routers, dashboards and the model agent's tooling select on them.
 */
public final class OmeLabels {
  /** Label naming the InferenceService (also the external Service's selector). */
  public static final String INFERENCE_SERVICE = "ome.io/inferenceservice";
  /** Label naming the component: engine, decoder, router or external-service. */
  public static final String COMPONENT = "component";
  public static final String SERVING_RUNTIME = "serving-runtime";
  public static final String FINE_TUNED_SERVING = "fine-tuned-serving";
  public static final String MERGED_WEIGHTS = "fine-tuned-serving-with-merged-weights";
  public static final String FT_STRATEGY = "fine-tuned-weight-ft-strategy";
  public static final String BASE_MODEL_NAME = "base-model-name";
  public static final String BASE_MODEL_SIZE = "base-model-size";
  public static final String BASE_MODEL_TYPE = "base-model-type";
  public static final String BASE_MODEL_VENDOR = "base-model-vendor";

  /** Annotation choosing the deployment mode of the InferenceService or of one component. */
  public static final String DEPLOYMENT_MODE = "ome.io/deploymentMode";
  public static final String AUTOSCALER_CLASS = "ome.io/autoscalerClass";
  public static final String ANN_BASE_MODEL_NAME = "ome.io/base-model-name";
  public static final String ANN_BASE_MODEL_VENDOR = "ome.io/base-model-vendor";
  public static final String ANN_BASE_MODEL_FORMAT = "ome.io/base-model-format";
  public static final String ANN_BASE_MODEL_FORMAT_VERSION = "ome.io/base-model-format-version";
  public static final String ANN_SERVING_RUNTIME = "ome.io/serving-runtime";
  public static final String ANN_FINE_TUNED_ADAPTER = "ome.io/inject-fine-tuned-adapter";
  public static final String ANN_FT_STRATEGY = "ome.io/fine-tuned-weight-ft-strategy";
  public static final String ANN_MERGED_WEIGHTS = "ome.io/fine-tuned-serving-with-merged-weights";
  public static final String ANN_MODEL_INIT = "ome.io/inject-model-init";
  private static final Set<String> COPIED_MODEL_ANNOTATIONS =
      Set.of("ome.io/base-model-decryption-key-name", "ome.io/base-model-decryption-secret-name");
  /** InferenceService annotations that configure the service itself and are not copied to its pods. */
  private static final Set<String> NOT_COPIED = Set.of("autoscaling.knative.dev/min-scale",
      "autoscaling.knative.dev/max-scale", "kubectl.kubernetes.io/last-applied-configuration");

  private OmeLabels() {
  }

  /**
   * The labels of one component's objects and pods: the InferenceService's, the component's own, then OME's.
   *
   * @param component {@code engine}, {@code decoder} or {@code router}
   */
  public static Map<String, String> labels(InferenceService isvc, String component, Map<String, String> own,
      ServedModel model, String runtimeName) {
    Map<String, String> labels = new LinkedHashMap<>();
    putAll(labels, isvc.getMetadata().getLabels());
    putAll(labels, own);
    labels.put(INFERENCE_SERVICE, isvc.getMetadata().getName());
    labels.put(COMPONENT, component);
    labels.put(SERVING_RUNTIME, runtimeName == null ? "" : runtimeName);
    labels.put(FINE_TUNED_SERVING, Boolean.toString(model.fineTunedServing()));
    labels.put(BASE_MODEL_NAME, model.name());
    labels.put(BASE_MODEL_SIZE, model.category());
    labels.put(BASE_MODEL_TYPE, "Serving");
    if (model.spec().vendor() != null) {
      labels.put(BASE_MODEL_VENDOR, model.spec().vendor());
    }
    if (model.fineTunedServing()) {
      labels.put(FT_STRATEGY, model.strategy() == null ? "" : model.strategy());
      labels.put(MERGED_WEIGHTS, Boolean.toString(model.mergedWeights()));
    }
    return labels;
  }

  /** The annotations of one component's objects and pods: the InferenceService's (minus its own settings), the
   * component's, then OME's model and runtime annotations. */
  public static Map<String, String> annotations(InferenceService isvc, Map<String, String> own, ServedModel model,
      String runtimeName) {
    Map<String, String> annotations = new LinkedHashMap<>();
    if (isvc.getMetadata().getAnnotations() != null) {
      isvc.getMetadata().getAnnotations().forEach((k, v) -> {
        if (!NOT_COPIED.contains(k)) {
          annotations.put(k, v);
        }
      });
    }
    putAll(annotations, own);
    if (model.fineTunedServing()) {
      annotations.put(ANN_FINE_TUNED_ADAPTER, model.fineTuned().getMetadata().getName());
      if (model.strategy() != null) {
        annotations.put(ANN_FT_STRATEGY, model.strategy());
      }
    }
    if (model.mergedWeights()) {
      annotations.put(ANN_MERGED_WEIGHTS, "true");
      annotations.put(ANN_MODEL_INIT, "false");
    } else {
      model.annotations().forEach((k, v) -> {
        if (COPIED_MODEL_ANNOTATIONS.contains(k)) {
          annotations.put(k, v);
        }
      });
    }
    annotations.put(ANN_BASE_MODEL_NAME, model.name());
    if (model.spec().vendor() != null) {
      annotations.put(ANN_BASE_MODEL_VENDOR, model.spec().vendor());
    }
    if (model.spec().modelFormat() != null) {
      annotations.put(ANN_BASE_MODEL_FORMAT, model.spec().modelFormat().name());
      if (model.spec().modelFormat().version() != null) {
        annotations.put(ANN_BASE_MODEL_FORMAT_VERSION, model.spec().modelFormat().version());
      }
    }
    if (runtimeName != null) {
      annotations.put(ANN_SERVING_RUNTIME, runtimeName);
    }
    return annotations;
  }

  private static void putAll(Map<String, String> into, Map<String, String> from) {
    if (from != null) {
      into.putAll(from);
    }
  }
}
