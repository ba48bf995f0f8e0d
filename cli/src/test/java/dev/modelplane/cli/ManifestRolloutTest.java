package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.cli.user.ManifestRollout;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@code up} applies and how it decides that an object is ready. */
@WithControlPlane
class ManifestRolloutTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void namespacesAreCreatedOrDefaultedAndUnknownKindsAreNamed(KubeTest test) {
    String ns = test.uniqueName("team");
    List<HasMetadata> applied = ManifestRollout.apply(test.controlPlane().client(), stream("""
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: a, namespace: %s}
        ---
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: %s}
        """.formatted(ns, ns)));
    assertThat(applied).extracting(o -> o.getMetadata().getNamespace()).containsExactly(ns, "default");
    assertThat(test.controlPlane().client().configMaps().inNamespace(ns).withName("a").get()).isNotNull();
    test.controlPlane().client().configMaps().inNamespace("default").withName(ns).delete();
    test.controlPlane().client().namespaces().withName(ns).delete();
    assertThatThrownBy(() -> ManifestRollout.apply(test.client(), stream("""
        apiVersion: example.com/v1
        kind: Widget
        metadata: {name: w}
        """))).hasMessageContaining("Widget w: the cluster does not serve example.com/v1 (is its CRD installed?)");
  }

  @Test
  void readinessFollowsPhaseStateConditionsAndReplicas() throws Exception {
    assertThat(readiness("{\"kind\":\"InferenceService\",\"apiVersion\":\"inference.llmkube.dev/v1alpha1\"}"))
        .isEqualTo(new ManifestRollout.Readiness(false, "waiting for the operator"));
    assertThat(readiness("{\"apiVersion\":\"inference.llmkube.dev/v1alpha1\",\"status\":{\"phase\":\"Failed\","
        + "\"conditions\":[{\"type\":\"Ready\",\"status\":\"False\",\"reason\":\"ModelFailed\",\"message\":\"no\"}]}}"))
        .isEqualTo(new ManifestRollout.Readiness(false, "Failed (ModelFailed: no)"));
    assertThat(readiness("{\"status\":{\"phase\":\"Suspended\"}}").ready()).isTrue();
    assertThat(readiness("{\"kind\":\"Namespace\",\"status\":{\"phase\":\"Active\"}}"))
        .isEqualTo(new ManifestRollout.Readiness(true, "Active"));
    assertThat(readiness("{\"status\":{\"state\":\"In_Transit\"}}"))
        .isEqualTo(new ManifestRollout.Readiness(false, "In_Transit"));
    assertThat(readiness("{\"status\":{\"state\":\"In_Transit\",\"conditions\":[{\"type\":\"Ready\",\"status\":"
        + "\"False\",\"reason\":\"Downloading\",\"message\":\"Downloading on 1 node(s): n1 (1.20 GiB of 4.00 GiB, "
        + "30%)\"}]}}")).isEqualTo(new ManifestRollout.Readiness(false, "In_Transit (Downloading: Downloading on 1 "
            + "node(s): n1 (1.20 GiB of 4.00 GiB, 30%))"));
    assertThat(readiness("{\"kind\":\"Deployment\",\"spec\":{\"replicas\":2},\"status\":{\"readyReplicas\":1}}"))
        .isEqualTo(new ManifestRollout.Readiness(false, "1/2 ready"));
    assertThat(readiness("{\"status\":{\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\"}]}}").ready()).isTrue();
    assertThat(readiness("{\"kind\":\"ConfigMap\"}")).isEqualTo(new ManifestRollout.Readiness(true, "applied"));
    assertThat(ManifestRollout.readiness(null)).isEqualTo(new ManifestRollout.Readiness(false, "not found"));
  }

  @Test
  void aBenchmarkIsWaitedForUntilItRuns() throws Exception {
    String job = "{\"kind\":\"BenchmarkJob\",\"apiVersion\":\"ome.io/v1beta1\",\"status\":";
    assertThat(readiness(job + "{\"state\":\"Pending\",\"details\":\"waiting for InferencePool default/p\"}}"))
        .isEqualTo(new ManifestRollout.Readiness(false, "Pending (waiting for InferencePool default/p)"));
    assertThat(readiness(job + "{\"state\":\"Running\"}}")).isEqualTo(new ManifestRollout.Readiness(true, "Running"));
    assertThat(readiness(job + "{\"state\":\"Completed\"}}").ready()).isTrue();
    assertThat(readiness(job + "{\"state\":\"Failed\",\"failureMessage\":\"exit 1\"}}"))
        .isEqualTo(new ManifestRollout.Readiness(false, "Failed (exit 1)"));
  }

  private static ManifestRollout.Readiness readiness(String json) throws Exception {
    JsonNode node = JSON.readTree(json);
    return ManifestRollout.readiness(node);
  }

  private static ByteArrayInputStream stream(String yaml) {
    return new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8));
  }
}
