package dev.modelplane.operator.llmkube.runtime;

/**
 * What the runtimes whose image the user supplies have in common (generic, PersonaPlex): no default image, no model
 * staging, no metric to autoscale on, and TCP probes, since nothing is known about the server's HTTP endpoints.
 */
sealed interface UserImageRenderer extends RuntimeRenderer permits GenericRenderer, PersonaPlexRenderer {

  @Override
  default boolean usesModelInit() {
    return false;
  }

  @Override
  default String defaultHpaMetric() {
    return null;
  }

  /** {@code spec.image}, else the operator's override; null when neither is set (the validator reports it). */
  @Override
  default String image(RuntimeInput in) {
    return RuntimeRenderer.pickImage(in, null);
  }

  @Override
  default Probes probes(int port) {
    return Probes.tcp(port);
  }
}
