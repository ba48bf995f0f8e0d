package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.StorageUri;

/** What the agent does for one model on its node, as {@link ModelPlanner} decides it. */
public sealed interface AgentAction {
  /**
   * The model has no business on this node (gone, being deleted, or the node does not match): stop any download,
   * remove the files the agent downloaded, the node label and the report.
   *
   * @param why for the log
   */
  record Remove(String why) implements AgentAction {
  }

  /**
   * The model cannot be placed: report Failed.
   *
   * @param reason CamelCase reason, e.g. {@code UnsupportedStorage}
   * @param message what is wrong, naming the field
   */
  record Fail(String reason, String message) implements AgentAction {
  }

  /**
   * Download from a model store into {@code dir}.
   *
   * @param source a URI whose {@code BaseModelValidator.handling} is {@code DOWNLOAD} (Hugging Face, S3, GCS, GitHub)
   * @param dir the destination
   */
  record Download(StorageUri source, ModelRoots.Resolved dir) implements AgentAction {
  }

  /** The files are already on the node at {@code dir}: check it and read the metadata. */
  record UseLocal(ModelRoots.Resolved dir) implements AgentAction {
  }

  /** The files live on a PersistentVolumeClaim: check it exists and is bound; nothing is copied to the node. */
  record UsePvc(String namespace, String claim, String subPath) implements AgentAction {
  }
}
