package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which pods are job pods, and what each of their containers runs here. */
class JobPodsTest {
  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "ghcr.io/moirai-internal/genai-bench:0.1.113, GENAI_BENCH",
      "genai-bench, GENAI_BENCH",
      "registry:5000/x/genai-bench@sha256:abc, GENAI_BENCH",
      "genai-bench-ui:1, OTHER",
      "my-genai-bench:1, OTHER",
      "busybox, OTHER"})
  void theImagesLastComponentSaysGenaiBench(String image, JobPods.Program program) {
    assertThat(JobPods.Program.of(new ContainerBuilder().withName("c").withImage(image).build())).isEqualTo(program);
  }

  @Test
  void modelplanesImageIsABenchProcessOnlyWhenItsFirstArgumentIsBench() {
    Container bench = new ContainerBuilder().withName("r").withImage("ghcr.io/modelplane/modelplane:1.0")
        .withArgs("bench", "summarize").build();
    Container other = new ContainerBuilder().withName("r").withImage("ghcr.io/modelplane/modelplane:1.0")
        .withArgs("router").build();
    assertThat(JobPods.Program.of(bench)).isEqualTo(JobPods.Program.MODELPLANE_BENCH);
    assertThat(JobPods.Program.of(other)).isEqualTo(JobPods.Program.OTHER);
  }

  @Test
  void aPodIsAJobPodWhenAnInitContainerOrAContainerRunsGenaiBench() {
    Container bench = new ContainerBuilder().withName("b").withImage("genai-bench:0.1.113").build();
    Container other = new ContainerBuilder().withName("o").withImage("busybox").build();
    assertThat(JobPods.isJobPod(pod(List.of(bench), List.of(other)))).isTrue();
    assertThat(JobPods.isJobPod(pod(List.of(), List.of(other, bench)))).isTrue();
    assertThat(JobPods.isJobPod(pod(List.of(other), List.of(other)))).isFalse();
    assertThat(JobPods.allContainers(pod(List.of(bench), List.of(other)))).extracting(Container::getName)
        .containsExactly("b", "o");
  }

  static Pod pod(List<Container> init, List<Container> main) {
    return new PodBuilder().withNewMetadata().withName("p").withNamespace("ns").withUid("u").endMetadata()
        .withNewSpec().withInitContainers(init).withContainers(main).withNodeName("gpu-node-0").endSpec().build();
  }
}
