package dev.modelplane.operator.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one-shot client view: a failing request is sent once, where the normal client retries it. */
class ClientsTest {
  @Test
  void aFailedLogReadIsNotRetried() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        if (exchange.getRequestURI().getPath().endsWith("/log")) {
          requests.incrementAndGet();
        }
        exchange.sendResponseHeaders(503, -1);
      }
    });
    server.start();
    Config config = new ConfigBuilder(Config.empty()).withMasterUrl("http://127.0.0.1:" + server.getAddress().getPort())
        .withRequestRetryBackoffLimit(3).withRequestRetryBackoffInterval(10).build();
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      assertThatThrownBy(() -> client.pods().inNamespace("ns").withName("p").inContainer("c").getLog())
          .isInstanceOf(KubernetesClientException.class);
      assertThat(requests).as("the normal client retries").hasValueGreaterThan(1);

      requests.set(0);
      KubernetesClient once = Clients.withoutRetries(client);
      assertThatThrownBy(() -> once.pods().inNamespace("ns").withName("p").inContainer("c").getLog())
          .isInstanceOf(KubernetesClientException.class);
      assertThat(requests).hasValue(1);
      assertThat(once.getConfiguration().getRequestTimeout()).isEqualTo(Clients.ONE_SHOT_TIMEOUT_MILLIS);
      assertThat(client.getConfiguration().getRequestRetryBackoffLimit()).as("the client itself is unchanged")
          .isEqualTo(3);
    } finally {
      server.stop(0);
    }
  }
}
