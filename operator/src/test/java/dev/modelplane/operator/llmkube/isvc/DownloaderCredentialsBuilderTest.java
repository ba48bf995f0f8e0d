package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.llmkube.model.PrefetchJobBuilder;
import dev.modelplane.operator.modelsource.ModelLayout;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Credentials of a Model's {@code sourceSecretRef} reach the download containers of serving pods and prefetch Jobs
 * only as environment from the Secret: never as a literal and never through a Kubernetes {@code $(VAR)} expansion in
 * command or args, which would put the secret into the process's argv.
 */
class DownloaderCredentialsBuilderTest {
  private static final Pattern KUBE_EXPANSION = Pattern.compile("\\$\\([A-Za-z_][A-Za-z0-9_]*\\)");
  private static final String SECRET_MODEL = """
      source: https://example.com/org/llama.gguf?X-Amz-Signature=abc
      sourceSecretRef: {name: hf-creds}
      """;

  private static List<Container> downloadContainers(PodSpec pod) {
    return pod.getInitContainers() == null ? List.of() : pod.getInitContainers();
  }

  private static void assertSecretOnlyThroughEnvFrom(Container c) {
    List<String> argv = new ArrayList<>();
    Stream.of(c.getCommand(), c.getArgs()).filter(l -> l != null).forEach(argv::addAll);
    for (String a : argv) {
      assertThat(KUBE_EXPANSION.matcher(a).find()).as("a $(VAR) expansion in %s: %s", c.getName(), a).isFalse();
      assertThat(a).doesNotContain("--user ").doesNotContain("-H \"Authorization")
          .doesNotContain("X-Amz-Signature=abc");
    }
    if (c.getEnv() != null) {
      for (EnvVar e : c.getEnv()) {
        assertThat(e.getName()).isNotIn("HF_TOKEN", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY",
            "AWS_SESSION_TOKEN");
      }
    }
  }

  @Test
  void servingPodDownloadersTakeTheSecretAsEnvironmentOnly() {
    PodSpec pod = Plans.pod("modelRef: m", SECRET_MODEL);
    Container downloader = downloadContainers(pod).stream().filter(c -> c.getName().equals("model-downloader"))
        .findFirst().orElseThrow();
    assertThat(downloader.getCommand()).containsExactly("sh", "-c", ModelStaging.DOWNLOAD_SCRIPT);
    assertThat(downloader.getArgs()).isNullOrEmpty();
    assertThat(downloader.getEnvFrom()).singleElement().satisfies(e ->
        assertThat(e.getSecretRef().getName()).isEqualTo("hf-creds"));
    for (PodSpec p : List.of(pod, Plans.pod("modelRef: m", SECRET_MODEL.replace(
        "https://example.com/org/llama.gguf?X-Amz-Signature=abc", "s3://bucket/llama.gguf")))) {
      p.getInitContainers().forEach(DownloaderCredentialsBuilderTest::assertSecretOnlyThroughEnvFrom);
      p.getContainers().forEach(DownloaderCredentialsBuilderTest::assertSecretOnlyThroughEnvFrom);
    }
  }

  @Test
  void prefetchJobsTakeTheSecretAsEnvironmentOnly() {
    Model m = TestObjects.model("llama", SECRET_MODEL + "prefetch: true\n");
    m.getMetadata().setUid("uid-1");
    PodSpec pod = PrefetchJobBuilder.build(m, ModelLayout.of(m, "https://huggingface.co"),
        OperatorSettings.defaults(), null).getSpec().getTemplate().getSpec();
    Stream.concat(downloadContainers(pod).stream(), pod.getContainers().stream())
        .forEach(DownloaderCredentialsBuilderTest::assertSecretOnlyThroughEnvFrom);
    assertThat(Stream.concat(downloadContainers(pod).stream(), pod.getContainers().stream())
        .flatMap(c -> c.getEnvFrom() == null ? Stream.empty() : c.getEnvFrom().stream())
        .map(e -> e.getSecretRef().getName())).contains("hf-creds");
  }

  @Test
  void theScriptPassesCredentialsToCurlOnStandardInputOnly() {
    String script = ModelStaging.DOWNLOAD_SCRIPT;
    assertThat(script.lines().filter(l -> l.contains("| curl "))).hasSize(3);
    for (String line : script.lines().map(String::strip)
        .filter(l -> l.startsWith("curl ") || l.contains("| curl ") || l.contains("else curl ")).toList()) {
      String curl = line.substring(line.indexOf("curl "));
      assertThat(curl).contains("--config -").doesNotContain("$HF_TOKEN").doesNotContain("$AWS_")
          .doesNotContain("${AWS_").doesNotContain("$2").doesNotContain("$url");
    }
  }
}
