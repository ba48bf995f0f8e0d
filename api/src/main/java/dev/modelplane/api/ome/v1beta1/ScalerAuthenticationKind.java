package dev.modelplane.api.ome.v1beta1;

/** The KEDA kind that holds the credentials a scaler uses to reach its metrics source. */
public enum ScalerAuthenticationKind {
  /** A namespaced {@code TriggerAuthentication} in the InferenceService's namespace. */
  TriggerAuthentication,
  /** A cluster-wide {@code ClusterTriggerAuthentication}. */
  ClusterTriggerAuthentication
}
