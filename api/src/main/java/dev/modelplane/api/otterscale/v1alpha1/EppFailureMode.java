package dev.modelplane.api.otterscale.v1alpha1;

/** What a gateway does with a request when the endpoint picker cannot be reached or does not answer in time. */
public enum EppFailureMode {
  /** Forward the request anyway, to a pod the gateway chooses itself. */
  FailOpen,
  /** Reject the request. */
  FailClose
}
