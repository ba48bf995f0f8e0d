package dev.modelplane.controlplane;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.function.UnaryOperator;

/**
 * A test's read-modify-write of an object a running controller also writes (status, finalizers, annotations).
 * The apiserver answers 409 when the controller wrote in between the read and the write; a user's client reads
 * again and reapplies the change, and so does this, a bounded number of times.
 */
public final class Edits {
  private static final int ATTEMPTS = 10;

  private Edits() {}

  /**
   * Applies {@code change} to the latest stored version of the object, reading it again after each conflict.
   *
   * @throws KubernetesClientException any failure other than a conflict, or the last conflict after ten tries
   */
  public static <T extends HasMetadata> T onLatest(Resource<T> resource, UnaryOperator<T> change) {
    for (int attempt = 1; ; attempt++) {
      try {
        return resource.edit(change);
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == ATTEMPTS) {
          throw e;
        }
      }
    }
  }
}
