package dev.modelplane.operator.common;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.RequestConfigBuilder;

/** Variants of the operator's Kubernetes client. */
public final class Clients {
  /** Request timeout of {@link #withoutRetries}. */
  public static final int ONE_SHOT_TIMEOUT_MILLIS = 10_000;

  private Clients() {
  }

  /**
   * The client without its retries and with a 10 s request timeout, for calls whose failure is an answer: a
   * PodDisruptionBudget refuses an eviction with 429, and a pod log is unavailable (5xx) while its kubelet cannot be
   * reached. The client would retry both with back-off for about 20 s on a reconciler thread, holding the service's
   * status back. The view shares the client's connections: do not close it.
   */
  public static KubernetesClient withoutRetries(KubernetesClient client) {
    return client.newClient(new RequestConfigBuilder(client.getConfiguration().getRequestConfig())
        .withRequestRetryBackoffLimit(0).withRequestTimeout(ONE_SHOT_TIMEOUT_MILLIS).build())
        .adapt(KubernetesClient.class);
  }
}
