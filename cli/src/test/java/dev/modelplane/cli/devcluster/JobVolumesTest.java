package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local directory of each volume kind. */
class JobVolumesTest {
  @TempDir
  Path tmp;

  private static Pod pod(Volume... volumes) {
    Pod pod = JobPodsTest.pod(List.of(), List.of(new ContainerBuilder().withName("c").build()));
    return new PodBuilder(pod).editSpec().withVolumes(volumes).endSpec().build();
  }

  @Test
  void emptyDirClaimHostPathConfigMapAndSecret() throws Exception {
    FakeClusterView cluster = new FakeClusterView().configMap("ns/cfg", "a.json", "{}")
        .configMap("ns/cfg", "b.txt", "b").secret("ns/creds", "key", "s3cr3t");
    cluster.claims.put("ns/results", tmp.resolve("pv-1"));
    Pod pod = pod(new VolumeBuilder().withName("scratch").withNewEmptyDir().endEmptyDir().build(),
        new VolumeBuilder().withName("results").withNewPersistentVolumeClaim("results", false).build(),
        new VolumeBuilder().withName("models").withNewHostPath().withPath("/mnt/models/llama").endHostPath().build(),
        new VolumeBuilder().withName("cfg").withNewConfigMap().withName("cfg").addNewItem().withKey("a.json")
            .withPath("conf/a.json").endItem().endConfigMap().build(),
        new VolumeBuilder().withName("creds").withNewSecret().withSecretName("creds").endSecret().build());
    Map<String, Path> dirs = JobVolumes.directories(pod, tmp.resolve("pod"), tmp.resolve("nodes"), cluster);
    assertThat(dirs).containsEntry("scratch", tmp.resolve("pod/volumes/scratch"))
        .containsEntry("results", tmp.resolve("pv-1"))
        .containsEntry("models", tmp.resolve("nodes/gpu-node-0/mnt/models/llama"))
        .containsEntry("cfg", tmp.resolve("pod/volumes/cfg")).containsEntry("creds", tmp.resolve("pod/volumes/creds"));
    assertThat(dirs.values()).allMatch(Files::isDirectory);
    assertThat(tmp.resolve("pod/volumes/cfg/conf/a.json")).hasContent("{}");
    assertThat(tmp.resolve("pod/volumes/cfg/b.txt")).doesNotExist();
    assertThat(tmp.resolve("pod/volumes/creds/key")).hasContent("s3cr3t");
  }

  @Test
  void anUnboundClaimOrAMissingConfigMapIsNotReadyYet() {
    FakeClusterView cluster = new FakeClusterView();
    Pod claim = pod(new VolumeBuilder().withName("results").withNewPersistentVolumeClaim("pending", false).build());
    assertThatThrownBy(() -> JobVolumes.directories(claim, tmp.resolve("pod"), tmp, cluster))
        .isInstanceOf(JobVolumes.NotReady.class)
        .hasMessage("volume \"results\": claim ns/pending is not bound to a directory volume");
    Pod cm = pod(new VolumeBuilder().withName("cfg").withNewConfigMap().withName("gone").endConfigMap().build());
    assertThatThrownBy(() -> JobVolumes.directories(cm, tmp.resolve("pod"), tmp, cluster))
        .isInstanceOf(JobVolumes.NotReady.class).hasMessage("volume \"cfg\": configmap \"gone\" not found");
  }
}
