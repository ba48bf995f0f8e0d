package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a user reads when a command fails on its input: one line, exit code 1, the stack trace only with --debug. */
class UserErrorsTest {
  private static final String MODEL = """
      apiVersion: inference.llmkube.dev/v1alpha1
      kind: Model
      metadata: {name: llama}
      spec: {source: "pvc://store/llama.gguf"}
      ---
      """;

  private static MainTest.Result render(Path dir, String yaml, String... more) throws Exception {
    Path file = dir.resolve("chat.yaml");
    Files.writeString(file, yaml);
    String[] args = new String[3 + more.length];
    args[0] = "render";
    args[1] = "-f";
    args[2] = file.toString();
    System.arraycopy(more, 0, args, 3, more.length);
    return MainTest.run(args);
  }

  @Test
  void aMistypedFieldIsOneLineWithItsPathLineAndTheFieldMeant(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, MODEL + """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat, namespace: team}
        spec:
          modelRef: llama
          contextSzie: 4096
        """);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).isEqualTo("error: " + dir.resolve("chat.yaml") + ": InferenceService team/chat: line 11:3: "
        + "unknown field \"spec.contextSzie\" (did you mean spec.contextSize?)\n");
  }

  @Test
  void aFieldSpelledTogetherPointsToItsNestedPlace(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, MODEL + """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec: {modelRef: llama, resourcesGpu: 1}
        """);
    assertThat(r.err()).isEqualTo("error: " + dir.resolve("chat.yaml") + ": InferenceService default/chat: "
        + "line 9:25: unknown field \"spec.resourcesGpu\" (did you mean spec.resources.gpu?)\n");
  }

  @Test
  void aWrongTypeNamesTheFieldAndWhatItTakes(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec:
          modelRef: llama
          replicas: two
        """);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("error: " + dir.resolve("chat.yaml") + ": InferenceService default/chat: "
        + "line 6:3: spec.replicas: cannot read \"two\" as an integer\n");
  }

  @Test
  void anUnknownEnumValueSuggestsTheNearestOne(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec: {modelRef: llama, runtime: vlm}
        """);
    assertThat(r.err()).startsWith("error: " + dir.resolve("chat.yaml") + ": InferenceService default/chat: line 4:")
        .contains("spec.runtime: cannot read \"vlm\" as one of llamacpp, llamacpp-router, personaplex, vllm, tgi, "
            + "sglang, generic (did you mean vllm?)")
        .hasLineCount(1);
  }

  @Test
  void badYamlIsItsLineAndColumn(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, MODEL + """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat
        spec: {modelRef: llama}
        """);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: " + dir.resolve("chat.yaml") + ": line 9:").contains("not valid YAML: ")
        .hasLineCount(1);
  }

  @Test
  void anUnknownKindOrVersionOfAModelplaneGroupIsNamed(@TempDir Path dir) throws Exception {
    MainTest.Result kind = render(dir, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Modle
        metadata: {name: llama}
        """);
    assertThat(kind.err()).isEqualTo("error: " + dir.resolve("chat.yaml") + ": Modle default/llama: unknown kind "
        + "\"Modle\" in inference.llmkube.dev/v1alpha1 (did you mean Model?)\n");
    MainTest.Result version = render(dir, """
        apiVersion: inference.llmkube.dev/v1
        kind: Model
        metadata: {name: llama}
        """);
    assertThat(version.err()).isEqualTo("error: " + dir.resolve("chat.yaml") + ": Model default/llama: unknown "
        + "apiVersion \"inference.llmkube.dev/v1\" for kind Model (use inference.llmkube.dev/v1alpha1)\n");
  }

  @Test
  void aDocumentWithoutKindIsNamed(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, MODEL + "metadata: {name: x}\n");
    assertThat(r.err()).isEqualTo("error: " + dir.resolve("chat.yaml") + ": line 6: a document without apiVersion "
        + "(every object needs apiVersion and kind)\n");
  }

  @Test
  void aMissingFileIsOneLine() {
    MainTest.Result r = MainTest.run("render", "-f", "no/such.yaml");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("error: no/such.yaml: no such file\n");
  }

  @Test
  void aMissingReferenceIsOneLine(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec: {modelRef: nowhere}
        """);
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("error: InferenceService default/chat: spec.modelRef: Model nowhere is not in the "
        + "given files\n");
  }

  @Test
  void upChecksItsFilesBeforeStartingAnything(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("bad.yaml");
    Files.writeString(file, MODEL + """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: chat}
        spec: {modelRef: llama, contextSzie: 1}
        """);
    MainTest.Result r = MainTest.run("up", "--state-dir", dir.resolve("state").toString(), "-f", file.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("error: " + file + ": InferenceService default/chat: line 9:25: unknown field "
        + "\"spec.contextSzie\" (did you mean spec.contextSize?)\n");
    assertThat(dir.resolve("state")).doesNotExist();
  }

  @Test
  void deployNamesAMistypedRuntime() {
    MainTest.Result r = MainTest.run("deploy", "chat", "--model", "org/repo", "--runtime", "sglnag", "--dry-run");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).isEqualTo("error: deploy chat: --runtime sglnag: no such value (did you mean sglang?)\n");
  }

  @Test
  void anUnreachableClusterIsOneLine(@TempDir Path dir) throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
        users: [{name: u, user: {token: t}}]
        contexts: [{name: x, context: {cluster: c, user: u}}]
        current-context: x
        """);
    MainTest.Result r = MainTest.run("list", "--kubeconfig", kubeconfig.toString());
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: ").hasLineCount(1).doesNotContain("\tat ");
  }

  @Test
  void debugAddsTheStackTrace(@TempDir Path dir) throws Exception {
    MainTest.Result r = render(dir, MODEL + "metadata: {name: x}\n", "--debug");
    assertThat(r.code()).isEqualTo(1);
    assertThat(r.err()).startsWith("error: " + dir.resolve("chat.yaml") + ": line 6: a document without")
        .contains("dev.modelplane.cli.user.UserError", "\tat dev.modelplane.cli.user.ManifestCheck");
  }

  /** No false alarms: every manifest under deploy/ (but the Helm chart, which is templates) is accepted. */
  @Test
  void everyShippedManifestPassesTheCheck() throws Exception {
    Path root = Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
    try (var files = Files.walk(root.resolve("deploy"))) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml") && !p.toString().contains("/helm/")).toList()) {
        dev.modelplane.cli.user.ManifestCheck.check(f.toString(), Files.readString(f), "default");
      }
    }
  }

  /** The loggers LogSetup silences are named after classes that exist (a renamed class would print again). */
  @Test
  void theSilencedLoggersAreRealClassesOfTheKubernetesClient() {
    for (String logger : dev.modelplane.common.logging.LogSetup.UNACTIONABLE) {
      assertThat(logger).satisfies(name -> Class.forName(name, false, getClass().getClassLoader()));
    }
  }

  @Test
  void whatTheClusterRefusedIsItsStatusMessageOnOneLine() {
    var status = new io.fabric8.kubernetes.api.model.StatusBuilder().withCode(422).withMessage(
        "InferenceService.inference.llmkube.dev \"chat\" is invalid: spec.replicas: Invalid value: 11: must be at "
            + "most 10\nmore detail").build();
    assertThat(UserErrors.describe(new io.fabric8.kubernetes.client.KubernetesClientException(status)))
        .isEqualTo("the cluster refused it (422): InferenceService.inference.llmkube.dev \"chat\" is invalid: "
            + "spec.replicas: Invalid value: 11: must be at most 10");
  }

  @Test
  void anUnexpectedFailureNamesItsTypeAndPointsToDebug() {
    assertThat(UserErrors.describe(new NullPointerException("x is null")))
        .isEqualTo("NullPointerException: x is null (--debug shows where)");
  }
}
