package dev.modelplane.operator.ome.runtime;

import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import java.time.Instant;

/**
 * A serving runtime as selection sees it.
 *
 * @param name the runtime's name
 * @param scope namespaced ServingRuntime or ClusterServingRuntime
 * @param spec its spec
 * @param created when it was created (newer runtimes are listed first, as in OME), or null
 */
public record RuntimeCandidate(String name, Scope scope, ServingRuntimeSpec spec, Instant created) {
  /** Where a runtime is defined. */
  public enum Scope {
    NAMESPACE("namespace-scoped", "ServingRuntime"), CLUSTER("cluster-scoped", "ClusterServingRuntime");

    private final String adjective;
    private final String kind;

    Scope(String adjective, String kind) {
      this.adjective = adjective;
      this.kind = kind;
    }

    /** {@code namespace-scoped} or {@code cluster-scoped}. */
    public String adjective() {
      return adjective;
    }

    /** {@code ServingRuntime} or {@code ClusterServingRuntime}. */
    public String kind() {
      return kind;
    }
  }

  public static RuntimeCandidate of(ServingRuntime runtime) {
    return new RuntimeCandidate(runtime.getMetadata().getName(), Scope.NAMESPACE, runtime.getSpec(),
        created(runtime.getMetadata().getCreationTimestamp()));
  }

  public static RuntimeCandidate of(ClusterServingRuntime runtime) {
    return new RuntimeCandidate(runtime.getMetadata().getName(), Scope.CLUSTER, runtime.getSpec(),
        created(runtime.getMetadata().getCreationTimestamp()));
  }

  /** {@code ClusterServingRuntime vllm}. */
  public String describe() {
    return scope.kind() + " " + name;
  }

  private static Instant created(String timestamp) {
    try {
      return timestamp == null ? null : Instant.parse(timestamp);
    } catch (java.time.format.DateTimeParseException e) {
      return null;
    }
  }
}
