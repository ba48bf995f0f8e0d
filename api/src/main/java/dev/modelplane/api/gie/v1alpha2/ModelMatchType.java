package dev.modelplane.api.gie.v1alpha2;

/** How a requested model name is compared with a rewrite rule's name. */
public enum ModelMatchType {
  /** The two names are equal, character for character. */
  Exact
}
