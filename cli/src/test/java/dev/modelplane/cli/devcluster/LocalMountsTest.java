package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A job container's paths on this machine. */
class LocalMountsTest {
  private static final Path RESULTS = Path.of("/platform-state/pods/ns/p/volumes/results");
  private static final Path MODELS = Path.of("/platform-state/models/gpu-node-0/mnt/models");
  private static final Path TERMINATION = Path.of("/platform-state/pods/ns/p/termination/benchmark");

  private static LocalMounts mounts() {
    Container c = new ContainerBuilder().withName("benchmark")
        .addNewVolumeMount().withName("results").withMountPath("/benchmark-results").endVolumeMount()
        .addNewVolumeMount().withName("models").withMountPath("/mnt/models/").withSubPath("llama").endVolumeMount()
        .addNewVolumeMount().withName("results").withMountPath("/benchmark-results/deep")
        .withSubPathExpr("$(POD)/x").endVolumeMount().build();
    return LocalMounts.of(c, Map.of("results", RESULTS, "models", MODELS), Map.of("POD", "p"), TERMINATION);
  }

  @Test
  void aMountPathAndWhatIsUnderItAreLocalWithTheSubPathAndTheLongestMountWins() {
    LocalMounts m = mounts();
    assertThat(m.rewrite("/benchmark-results")).isEqualTo(RESULTS.toString());
    assertThat(m.rewrite("/benchmark-results/run-1/x.json")).isEqualTo(RESULTS + "/run-1/x.json");
    assertThat(m.rewrite("/mnt/models")).isEqualTo(MODELS + "/llama");
    assertThat(m.rewrite("/mnt/models/tokenizer")).isEqualTo(MODELS + "/llama/tokenizer");
    assertThat(m.rewrite("/benchmark-results/deep/a")).isEqualTo(RESULTS + "/p/x/a");
  }

  @Test
  void flagValuesAreRewrittenAndOtherWordsAreNot() {
    LocalMounts m = mounts();
    assertThat(m.rewrite("--experiment-base-dir=/benchmark-results")).isEqualTo("--experiment-base-dir=" + RESULTS);
    assertThat(m.rewrite("/benchmark-resultsX")).isEqualTo("/benchmark-resultsX");
    assertThat(m.rewrite("/etc/hosts")).isEqualTo("/etc/hosts");
    assertThat(m.rewrite("benchmark-results")).isEqualTo("benchmark-results");
    assertThat(m.rewrite("--x=relative")).isEqualTo("--x=relative");
  }

  @Test
  void theTerminationMessagePathIsTheContainersFileDefaultOrNamed() {
    assertThat(mounts().rewrite("/dev/termination-log")).isEqualTo(TERMINATION.toString());
    Container named = new ContainerBuilder().withName("c").withTerminationMessagePath("/tmp/msg").build();
    LocalMounts m = LocalMounts.of(named, Map.of(), Map.of(), TERMINATION);
    assertThat(m.rewrite("/tmp/msg")).isEqualTo(TERMINATION.toString());
    assertThat(m.rewrite("/dev/termination-log")).isEqualTo("/dev/termination-log");
  }

  @Test
  void aMountOfAnUnknownVolumeOrASubPathLeavingTheVolumeIsRefused() {
    Container unknown = new ContainerBuilder().withName("c")
        .addNewVolumeMount().withName("nope").withMountPath("/x").endVolumeMount().build();
    assertThatThrownBy(() -> LocalMounts.of(unknown, Map.of(), Map.of(), TERMINATION))
        .hasMessage("volume mount \"nope\" names no volume of the pod");
    Container escape = new ContainerBuilder().withName("c")
        .addNewVolumeMount().withName("results").withMountPath("/x").withSubPath("../up").endVolumeMount().build();
    assertThatThrownBy(() -> LocalMounts.of(escape, Map.of("results", RESULTS), Map.of(), TERMINATION))
        .hasMessage("volume mount \"results\": subPath \"../up\" must be a relative path inside the volume");
  }
}
