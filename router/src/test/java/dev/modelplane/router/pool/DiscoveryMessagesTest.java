package dev.modelplane.router.pool;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ConnectException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** What discovery says about an unreachable Kubernetes API: the exception under the async wrappers. */
class DiscoveryMessagesTest {
  @Test
  void theErrorNamesTheFirstExceptionUnderTheWrappers() {
    assertThat(KubernetesDiscovery.rootMessage(new CompletionException(new ConnectException())))
        .isEqualTo("ConnectException");
    assertThat(KubernetesDiscovery.rootMessage(new CompletionException(new ConnectException("Connection refused"))))
        .isEqualTo("ConnectException: Connection refused");
    assertThat(KubernetesDiscovery.rootMessage(new IllegalStateException("forbidden")))
        .isEqualTo("IllegalStateException: forbidden");
  }
}
