package dev.modelplane.operator.it;

import static dev.modelplane.operator.it.OperatorHarness.isvc;
import static dev.modelplane.operator.it.OperatorHarness.model;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.llmkube.isvc.IsvcDeploymentBuilder;
import dev.modelplane.operator.modelsource.GgufFixtures;
import dev.modelplane.operator.modelsource.SourceFingerprint;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Revalidation on a real apiserver, every 2 s against a loopback file server: a changed source becomes
 * SourceDrifted under IfNotPresent, and under OnChange a new fingerprint that rolls the serving Deployment (whose
 * downloader then fetches the file again).
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER})
class SourceRefreshIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static OperatorHarness harness;
  private static GgufFixtures.Server files;

  @BeforeAll
  static void start(ControlPlane controlPlane) throws IOException {
    files = GgufFixtures.server();
    harness = OperatorHarness.start(controlPlane, OperatorSettings.defaults()
        .withModelCache(OperatorSettings.ModelCacheSettings.disabled()).toBuilder()
        .revalidationInterval(Duration.ofSeconds(2)).build());
  }

  @AfterAll
  static void stop() {
    if (harness != null) {
      harness.close();
    }
    if (files != null) {
      files.close();
    }
  }

  private static Condition drifted(Model m) {
    return m.getStatus() == null || m.getStatus().conditions() == null ? null : m.getStatus().conditions().stream()
        .filter(c -> c.getType().equals("SourceDrifted")).findFirst().orElse(null);
  }

  private static String podFingerprint(KubernetesClient client, String name) {
    Deployment d = client.apps().deployments().withName(name).get();
    return d == null ? null : d.getSpec().getTemplate().getMetadata().getAnnotations()
        .get(IsvcDeploymentBuilder.SOURCE_FINGERPRINT);
  }

  @Test
  void onChangeRecordsTheNewSourceAndRollsTheServingPods(KubeTest test) {
    String path = "/" + test.namespace() + "/llama.gguf";
    String url = files.put(path, GgufFixtures.llama(64 * 1024));
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: " + url + "\nrefreshPolicy: OnChange")).create();
    client.resource(isvc("chat", "modelRef: llama")).create();

    await().atMost(TIMEOUT).until(() -> podFingerprint(client, "chat") != null);
    String before = podFingerprint(client, "chat");
    assertThat(before).isEqualTo(SourceFingerprint.refreshToken(client.resources(Model.class).withName("llama")
        .get()));

    files.put(path, GgufFixtures.llama(128 * 1024));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Model m = client.resources(Model.class).withName("llama").get();
      assertThat(drifted(m)).isNotNull();
      assertThat(drifted(m).getReason()).isEqualTo("Refreshed");
      assertThat(podFingerprint(client, "chat")).isNotEqualTo(before)
          .isEqualTo(SourceFingerprint.refreshToken(m));
    });
    assertThat(client.v1().events().list().getItems())
        .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("SourceRefreshed"));
  }

  @Test
  void ifNotPresentOnlyReportsTheDriftAndLeavesThePodsAlone(KubeTest test) {
    String path = "/" + test.namespace() + "/llama.gguf";
    String url = files.put(path, GgufFixtures.llama(64 * 1024));
    KubernetesClient client = test.client();
    client.resource(model("llama", "source: " + url)).create();
    client.resource(isvc("chat", "modelRef: llama")).create();
    await().atMost(TIMEOUT).until(() -> client.apps().deployments().withName("chat").get() != null);
    String template = client.apps().deployments().withName("chat").get().getSpec().getTemplate().toString();

    files.put(path, GgufFixtures.llama(128 * 1024));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Condition c = drifted(client.resources(Model.class).withName("llama").get());
      assertThat(c).isNotNull();
      assertThat(c.getStatus()).isEqualTo("True");
      assertThat(c.getReason()).isEqualTo("UpstreamChanged");
    });
    assertThat(client.v1().events().list().getItems())
        .anySatisfy(e -> assertThat(e.getReason()).isEqualTo("SourceDrifted"));
    assertThat(podFingerprint(client, "chat")).isNull();
    assertThat(client.apps().deployments().withName("chat").get().getSpec().getTemplate().toString())
        .as("no rollout").isEqualTo(template);
  }
}
