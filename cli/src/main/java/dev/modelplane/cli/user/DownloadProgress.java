package dev.modelplane.cli.user;

import dev.modelplane.operator.llmkube.IsvcLabels;
import dev.modelplane.operator.llmkube.model.ModelStatusAggregator;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How far an LLMKube model download is, read from the log of the serving pods' {@code model-downloader} init
 * container, which prints {@code model-downloader: progress <file> <bytes so far> <total bytes, or ->} every few
 * seconds. Progress is a courtesy: a log that cannot be read (no kubelet, no right to read logs) shows nothing.
 */
public final class DownloadProgress {
  static final String CONTAINER = "model-downloader";
  private static final int TAIL_LINES = 20;
  private static final Pattern LINE = Pattern.compile(
      "(?m)^model-downloader: progress (\\S+) (\\d+) (\\d+|-)\\s*$");

  private DownloadProgress() {
  }

  /** One progress line: the file, the bytes written so far and the total ({@code -1} when unknown). */
  record Line(String file, long bytes, long total) {
    /** {@code downloading model.gguf: 1.20 GiB of 4.00 GiB (30%)}, or only the bytes without a total. */
    String describe() {
      String done = ModelStatusAggregator.humanSize(bytes);
      if (total <= 0) {
        return "downloading " + file + ": " + done;
      }
      return "downloading " + file + ": " + done + " of " + ModelStatusAggregator.humanSize(total) + " ("
          + Math.min(100, bytes * 100 / total) + "%)";
    }
  }

  /** Reads the last lines of one container's log; empty when it cannot be read. */
  @FunctionalInterface
  interface PodLogs {
    Optional<String> tail(String namespace, String pod, String container);

    /** The cluster's {@code pods/log}. */
    static PodLogs of(KubernetesClient client) {
      return (namespace, pod, container) -> {
        try {
          return Optional.ofNullable(client.pods().inNamespace(namespace).withName(pod).inContainer(container)
              .tailingLines(TAIL_LINES).getLog());
        } catch (KubernetesClientException e) {
          return Optional.empty();
        }
      };
    }
  }

  /** The newest progress line of {@code log}, if it has one. */
  static Optional<Line> newest(String log) {
    Matcher m = LINE.matcher(log == null ? "" : log);
    Line last = null;
    while (m.find()) {
      long total = "-".equals(m.group(3)) ? -1 : Long.parseLong(m.group(3));
      last = new Line(m.group(1), Long.parseLong(m.group(2)), total);
    }
    return Optional.ofNullable(last);
  }

  /**
   * One {@code <pod>: downloading …} entry per pod of the LLMKube InferenceService {@code name} whose downloader is
   * running and has said how far it is.
   */
  static List<String> ofService(KubernetesClient client, String namespace, String name) {
    try {
      List<Pod> pods = client.pods().inNamespace(namespace).withLabels(IsvcLabels.selector(name)).list().getItems();
      return ofPods(pods, PodLogs.of(client));
    } catch (KubernetesClientException e) {
      return List.of();
    }
  }

  /** As {@link #ofService}, for these pods and logs. */
  static List<String> ofPods(List<Pod> pods, PodLogs logs) {
    List<String> out = new ArrayList<>();
    for (Pod pod : pods) {
      if (downloading(pod)) {
        logs.tail(pod.getMetadata().getNamespace(), pod.getMetadata().getName(), CONTAINER).flatMap(
            DownloadProgress::newest).ifPresent(l -> out.add(pod.getMetadata().getName() + ": " + l.describe()));
      }
    }
    return out;
  }

  private static boolean downloading(Pod pod) {
    if (pod.getStatus() == null || pod.getStatus().getInitContainerStatuses() == null) {
      return false;
    }
    for (ContainerStatus s : pod.getStatus().getInitContainerStatuses()) {
      if (CONTAINER.equals(s.getName()) && s.getState() != null && s.getState().getRunning() != null) {
        return true;
      }
    }
    return false;
  }
}
