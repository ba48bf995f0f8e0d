package dev.modelplane.controlplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * The fault hooks chaos tests use: a control plane of its own (not the shared one) whose kube-apiserver is killed and
 * etcd stopped, then both started again on the same ports and data — what was stored survives, and clients made
 * before the fault work again after it.
 */
@WithControlPlane
class CoreRestartTest {
  @Test
  void theApiServerAndEtcdComeBackWithTheirDataAfterAKillAndAStop() throws IOException {
    try (ControlPlane cp = ControlPlane.start()) {
      KubernetesClient client = cp.client();
      client.configMaps().inNamespace("default").resource(configMap("before")).create();

      cp.stopCore(ControlPlane.Core.KUBE_APISERVER, true);
      assertThat(cp.isRunning(ControlPlane.Core.KUBE_APISERVER)).isFalse();
      assertThatThrownBy(() -> client.configMaps().inNamespace("default").withName("before").get())
          .isInstanceOf(KubernetesClientException.class);
      cp.startCore(ControlPlane.Core.KUBE_APISERVER);
      assertThat(client.configMaps().inNamespace("default").withName("before").get()).isNotNull();

      cp.stopCore(ControlPlane.Core.ETCD, false);
      assertThat(cp.isRunning(ControlPlane.Core.ETCD)).isFalse();
      cp.startCore(ControlPlane.Core.ETCD);
      client.configMaps().inNamespace("default").resource(configMap("after")).create();
      assertThat(client.configMaps().inNamespace("default").list().getItems())
          .extracting(c -> c.getMetadata().getName()).contains("before", "after");
    }
  }

  private static ConfigMap configMap(String name) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).endMetadata().addToData("k", name).build();
  }
}
