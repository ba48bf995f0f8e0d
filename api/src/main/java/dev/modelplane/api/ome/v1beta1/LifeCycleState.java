package dev.modelplane.api.ome.v1beta1;

/** Where a model or a set of fine-tuned weights stands on its way to being usable on the cluster's nodes. */
public enum LifeCycleState {
  /** The object was accepted and nothing has been done for it yet. */
  Creating,
  /** The files are being imported into the storage the nodes fetch from. */
  Importing,
  /** The files are being copied to the selected nodes and no node has a complete copy yet. */
  In_Transit,
  /** The weights are still being produced by a training job. */
  In_Training,
  /** At least one node holds a complete copy, so serving pods can be scheduled there. */
  Ready,
  /** No node holds a usable copy and at least one node failed to obtain one. */
  Failed
}
