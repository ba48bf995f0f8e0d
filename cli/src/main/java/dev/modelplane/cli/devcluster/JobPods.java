package dev.modelplane.cli.devcluster;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The job pods the dev cluster runs for real: pods with a container or init container of genai-bench's image
 * (recognised by the repository's last component, any registry and tag). The same pattern feeds the kwok stage
 * selectors that leave these pods to the pod runner.
 */
public final class JobPods {
  /** genai-bench's image repository name. */
  static final String GENAI_BENCH_REPOSITORY = "genai-bench";
  private static final Pattern GENAI_BENCH_IMAGE = Pattern.compile(ServerKind.imageRegex(GENAI_BENCH_REPOSITORY));
  private static final Pattern MODELPLANE = Pattern.compile(ServerKind.imageRegex(ServerKind.MODELPLANE_REPOSITORY));

  /** What a job pod's container runs on this machine. */
  enum Program {
    /** The genai-bench CLI from PyPI, in the cache's virtual environment. */
    GENAI_BENCH,
    /** modelplane's image with first argument {@code bench}: a java process of this distribution. */
    MODELPLANE_BENCH,
    /** Anything else: reported as succeeded at once. */
    OTHER;

    static Program of(Container container) {
      String image = image(container);
      if (GENAI_BENCH_IMAGE.matcher(image).find()) {
        return GENAI_BENCH;
      }
      List<String> args = container.getArgs() == null ? List.of() : container.getArgs();
      if (MODELPLANE.matcher(image).find() && !args.isEmpty() && "bench".equals(args.get(0))) {
        return MODELPLANE_BENCH;
      }
      return OTHER;
    }
  }

  private JobPods() {
  }

  /** Whether {@code pod} is a job pod: some container or init container runs genai-bench's image. */
  public static boolean isJobPod(Pod pod) {
    return allContainers(pod).stream().anyMatch(c -> GENAI_BENCH_IMAGE.matcher(image(c)).find());
  }

  /** The init containers then the containers of {@code pod}. */
  static List<Container> allContainers(Pod pod) {
    List<Container> all = new ArrayList<>();
    if (pod.getSpec() != null && pod.getSpec().getInitContainers() != null) {
      all.addAll(pod.getSpec().getInitContainers());
    }
    if (pod.getSpec() != null && pod.getSpec().getContainers() != null) {
      all.addAll(pod.getSpec().getContainers());
    }
    return all;
  }

  /** A jq expression that is {@code true} for a pod {@link #isJobPod} accepts: the kwok stage selector. */
  public static String podSelectorJq() {
    return "[(.spec.initContainers // [])[], (.spec.containers // [])[] | select(.image // \"\" | test(\""
        + ServerKind.imageRegex(GENAI_BENCH_REPOSITORY).replace("\\", "\\\\").replace("\"", "\\\"")
        + "\"))] | length > 0";
  }

  private static String image(Container container) {
    return container.getImage() == null ? "" : container.getImage().trim();
  }
}
