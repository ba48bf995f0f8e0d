package dev.modelplane.api.ome.v1beta1;

/** The broad cause of a model serving failure. */
public enum FailureReason {
  /** The base model exists but is not ready on any node yet. */
  BaseModelNotReady,
  /** No BaseModel or ClusterBaseModel has the referenced name. */
  BaseModelNotFound,
  /** The model server failed while loading the model (crash, error exit). */
  ModelLoadFailed,
  /** The serving runtime is not healthy. */
  RuntimeUnhealthy,
  /** The selected serving runtime is disabled. */
  RuntimeDisabled,
  /** No serving runtime supports the model. */
  NoSupportingRuntime,
  /** The named serving runtime does not exist. */
  RuntimeNotRecognized,
  /** The deprecated predictor section is invalid. */
  InvalidPredictorSpec
}
