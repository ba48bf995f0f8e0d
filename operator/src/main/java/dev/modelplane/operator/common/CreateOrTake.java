package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Supplier;

/**
 * Creates an object several controllers may create at once (a namespace's shared claim): when another one won the
 * race (409), the existing object is the answer.
 */
public final class CreateOrTake {
  private CreateOrTake() {
  }

  /** Runs {@code create}; on a 409 returns the object that exists under the desired name, if any. */
  public static <T extends HasMetadata> T create(T desired, KubernetesClient client, Supplier<T> create) {
    try {
      return create.get();
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        T existing = client.resource(desired).get();
        if (existing != null) {
          return existing;
        }
      }
      throw e;
    }
  }
}
