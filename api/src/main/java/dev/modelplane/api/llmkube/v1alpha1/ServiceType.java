package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonProperty;

/** How the Service in front of an inference deployment is exposed. */
public enum ServiceType {
  /** Reachable only inside the cluster (the default). */
  @JsonProperty("ClusterIP") CLUSTER_IP,
  /** Also reachable on a port of every node. */
  @JsonProperty("NodePort") NODE_PORT,
  /** Also reachable through a cloud load balancer. */
  @JsonProperty("LoadBalancer") LOAD_BALANCER
}
