package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** The application protocol model servers in a pool speak. */
public enum AppProtocol {
  /** HTTP/1.1. */
  @JsonProperty("http") HTTP,
  /** HTTP/2 without TLS (prior knowledge). */
  @JsonProperty("kubernetes.io/h2c") H2C
}
