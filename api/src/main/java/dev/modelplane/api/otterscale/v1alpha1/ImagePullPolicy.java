package dev.modelplane.api.otterscale.v1alpha1;

/** When the kubelet pulls a container image, with Kubernetes' own values. */
public enum ImagePullPolicy {
  /** Pull the image every time a container starts. */
  Always,
  /** Pull only when the image is not on the node yet. */
  IfNotPresent,
  /** Never pull; the image must already be on the node. */
  Never
}
