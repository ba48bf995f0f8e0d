package dev.modelplane.api.gie.v1;

/** Behaviour of a gateway when the endpoint picker cannot be reached or does not answer in time. */
public enum FailureMode {
  /** Forward the request anyway, to an endpoint the gateway chooses itself. */
  FailOpen,
  /** Reject the request. */
  FailClose
}
