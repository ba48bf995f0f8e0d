package dev.modelplane.api.llmkube.v1alpha1;

/** Regular expressions shared by the LLMKube types, for use with {@code @Pattern}. */
final class Patterns {
  /**
   * A Kubernetes resource quantity such as {@code 2}, {@code 500m}, {@code 4Gi} or {@code 1e3}: the syntax the
   * apiserver accepts for resource requests. Checked at admission so that a malformed value cannot reach the
   * controller.
   */
  static final String QUANTITY = "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))"
      + "(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

  /**
   * The looser quantity pattern upstream LLMKube puts on {@code resources.ephemeralStorage}: a number followed by
   * suffix characters. Kept as it is on that field so that every manifest upstream accepts is accepted here.
   */
  static final String UPSTREAM_QUANTITY = "^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$";

  private Patterns() {
  }
}
