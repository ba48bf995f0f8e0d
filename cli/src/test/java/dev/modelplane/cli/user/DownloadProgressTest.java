package dev.modelplane.cli.user;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ContainerStatusBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DownloadProgressTest {
  private static final String LOG = """
      model-downloader: fetching https://huggingface.co/org/repo/resolve/main/model.gguf
      model-downloader: progress model.gguf 1073741824 4294967296
      model-downloader: progress model.gguf 1288490189 4294967296
      """;

  @Test
  void theNewestProgressLineCounts() {
    assertThat(DownloadProgress.newest(LOG)).contains(
        new DownloadProgress.Line("model.gguf", 1288490189L, 4294967296L));
    assertThat(DownloadProgress.newest(LOG).orElseThrow().describe())
        .isEqualTo("downloading model.gguf: 1.20 GiB of 4.00 GiB (30%)");
  }

  @Test
  void withoutATotalOnlyTheBytesAreShown() {
    DownloadProgress.Line line = DownloadProgress.newest("model-downloader: progress tokenizer.json 2048 -\n")
        .orElseThrow();
    assertThat(line.total()).isEqualTo(-1);
    assertThat(line.describe()).isEqualTo("downloading tokenizer.json: 2.00 KiB");
  }

  @Test
  void linesOfOtherShapesAreNotProgress() {
    assertThat(DownloadProgress.newest("curl: (22) The requested URL returned error: 404\n")).isEmpty();
    assertThat(DownloadProgress.newest("x model-downloader: progress a 1 2\n")).isEmpty();
    assertThat(DownloadProgress.newest("model-downloader: progress a one 2\n")).isEmpty();
    assertThat(DownloadProgress.newest(null)).isEmpty();
  }

  @Test
  void onlyPodsWhoseDownloaderRunsAreAskedAndUnreadableLogsShowNothing() {
    List<String> asked = new ArrayList<>();
    DownloadProgress.PodLogs logs = (ns, pod, container) -> {
      asked.add(ns + "/" + pod + "/" + container);
      return pod.endsWith("-a") ? Optional.of(LOG) : Optional.empty();
    };
    List<String> shown = DownloadProgress.ofPods(List.of(pod("chat-a", true), pod("chat-b", true),
        pod("chat-c", false), new PodBuilder().withNewMetadata().withName("chat-d").withNamespace("team")
            .endMetadata().build()), logs);
    assertThat(shown).containsExactly("chat-a: downloading model.gguf: 1.20 GiB of 4.00 GiB (30%)");
    assertThat(asked).containsExactly("team/chat-a/model-downloader", "team/chat-b/model-downloader");
  }

  private static Pod pod(String name, boolean downloaderRunning) {
    ContainerStatusBuilder status = new ContainerStatusBuilder().withName("model-downloader");
    if (downloaderRunning) {
      status.withNewState().withNewRunning().endRunning().endState();
    } else {
      status.withNewState().withNewTerminated().withExitCode(0).endTerminated().endState();
    }
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("team").endMetadata()
        .withNewStatus().withInitContainerStatuses(status.build()).endStatus().build();
  }
}
