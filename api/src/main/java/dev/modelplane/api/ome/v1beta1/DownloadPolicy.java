package dev.modelplane.api.ome.v1beta1;

/** What the model agent does when a node already holds files for a model that it is asked to fetch. */
public enum DownloadPolicy {
  /** Fetch the artifact again, whatever is already on the node. The agent's behaviour when no policy is given. */
  AlwaysDownload,
  /**
   * Reuse a copy already on the node when it is the same artifact (for {@code hf://} sources: the same repository
   * commit), linking to it instead of downloading a second copy.
   */
  ReuseIfExists
}
