package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.controlplane.ControlPlaneBinaries;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code modelplane dev-cluster up|status|down} against the real control-plane binaries. */
class DevClusterCommandTest {
  @Test
  void upStatusDown(@TempDir Path state) throws Exception {
    if (ControlPlaneBinaries.find().isEmpty()) {
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no control-plane binaries: run hack/control-plane/build.sh");
      }
      Assumptions.abort("skipped: " + ControlPlaneBinaries.missingMessage());
    }
    MainTest.Result up = MainTest.run("dev-cluster", "up", "--state-dir", state.toString(), "--gpu-nodes", "1",
        "--gpus-per-node", "4", "--timeout", "3m");
    try {
      assertThat(up.code()).as(up.err()).isZero();
      String[] lines = up.out().strip().split("\n");
      String last = lines[lines.length - 1];
      assertThat(last).isEqualTo("KUBECONFIG=" + state.resolve("kubeconfig"));
      Path kubeconfig = Path.of(last.substring("KUBECONFIG=".length()));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kubeconfig)))
          .as("the admin's client key is in it").isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state))).isEqualTo("rwx------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state.resolve("work/kubeconfig"))))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(state.resolve("work/pki/admin.key"))))
          .isEqualTo("rw-------");

      try (KubernetesClient client = new KubernetesClientBuilder()
          .withConfig(Config.fromKubeconfig(Files.readString(kubeconfig))).build()) {
        assertThat(client.nodes().list().getItems()).hasSize(2)
            .extracting(n -> String.valueOf(n.getStatus().getCapacity().get("nvidia.com/gpu")))
            .containsExactlyInAnyOrder("null", "4");
        assertThat(client.apiextensions().v1().customResourceDefinitions().list().getItems())
            .anySatisfy(crd -> assertThat(crd.getSpec().getGroup()).isEqualTo("ome.io"));
      }

      MainTest.Result again = MainTest.run("dev-cluster", "up", "--state-dir", state.toString());
      assertThat(again.out()).contains("already running").endsWith("KUBECONFIG=" + kubeconfig + "\n");
      MainTest.Result status = MainTest.run("dev-cluster", "status", "--state-dir", state.toString());
      assertThat(status.code()).isZero();
      assertThat(status.out()).contains("is running", "kube-apiserver");
    } finally {
      MainTest.Result down = MainTest.run("dev-cluster", "down", "--state-dir", state.toString());
      assertThat(down.code()).isZero();
    }
    MainTest.Result after = MainTest.run("dev-cluster", "status", "--state-dir", state.toString());
    assertThat(after.code()).isEqualTo(3);
    assertThat(after.out()).contains("not running");
    assertThat(state.resolve("work")).doesNotExist();
  }
}
