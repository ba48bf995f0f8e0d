package dev.modelplane.cli.devcluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job container's local command line, environment and working directory. */
class JobCommandTest {
  @TempDir
  Path tmp;
  private Path results;
  private Path termination;
  private JobCommand.Tools tools;
  private final FakeClusterView cluster = new FakeClusterView();

  @BeforeEach
  void setUp() throws Exception {
    Path bin = Files.createDirectories(tmp.resolve("venv/bin"));
    Files.createFile(bin.resolve("genai-bench"), PosixFilePermissions.asFileAttribute(
        PosixFilePermissions.fromString("rwxr-xr-x")));
    results = Files.createDirectories(tmp.resolve("volumes/results"));
    termination = tmp.resolve("termination/benchmark");
    tools = new JobCommand.Tools(bin, tmp.resolve("tokenizer"), List.of("/jdk/bin/java", "-cp", "x.jar", "Main"),
        "/usr/bin:/bin");
    cluster.endpoints.put("llm/llama:8080", "127.1.0.5:8000");
  }

  private JobCommand command(Container c, Map<String, String> env) {
    LocalMounts mounts = LocalMounts.of(c, Map.of("results", results), env, termination);
    return JobCommand.of(c, JobPods.Program.of(c), env, mounts, new ServiceUrls("bench", cluster),
        tmp.resolve("scratch"), tools, "job-abc");
  }

  private static ContainerBuilder benchmark() {
    return new ContainerBuilder().withName("benchmark").withImage("ghcr.io/moirai-internal/genai-bench:0.1.113")
        .addNewVolumeMount().withName("results").withMountPath("/benchmark-results").endVolumeMount();
  }

  @Test
  void genaiBenchRunsFromTheCacheWithPathsUrlsAndVariablesMappedAndTheTokenizerReplaced() {
    Container c = benchmark().withCommand("genai-bench").withArgs("benchmark", "--api-backend", "openai",
        "--api-base", "http://llama.llm.svc.cluster.local:8080", "--api-model-name", "$(MODEL)",
        "--model-tokenizer", "meta-llama/Llama-3.1-8B-Instruct", "--traffic-scenario", "D(100,100)",
        "--experiment-base-dir", "/benchmark-results", "--experiment-folder-name", "run").build();
    JobCommand cmd = command(c, Map.of("MODEL", "llama", "ENABLE_UI", "false", "OUT", "/benchmark-results/x"));
    assertThat(cmd.command()).containsExactly(tmp.resolve("venv/bin/genai-bench").toString(), "benchmark",
        "--api-backend", "openai", "--api-base", "http://127.1.0.5:8000", "--api-model-name", "llama",
        "--model-tokenizer", tmp.resolve("tokenizer").toString(), "--traffic-scenario", "D(100,100)",
        "--experiment-base-dir", results.toString(), "--experiment-folder-name", "run");
    assertThat(cmd.env()).containsEntry("PATH", tmp.resolve("venv/bin") + ":/usr/bin:/bin")
        .containsEntry("HOME", tmp.resolve("scratch").toString()).containsEntry("HOSTNAME", "job-abc")
        .containsEntry("ENABLE_UI", "false").containsEntry("OUT", results + "/x")
        .containsEntry("HF_HUB_OFFLINE", "1").containsEntry("TRANSFORMERS_OFFLINE", "1")
        .containsEntry("HF_DATASETS_OFFLINE", "1");
    assertThat(cmd.workDir()).isEqualTo(tmp.resolve("scratch"));
  }

  @Test
  void theLoggedCommandHidesKeysTokensAndSecrets() {
    JobCommand cmd = new JobCommand(List.of("genai-bench", "benchmark", "--api-key", "sk-1", "--model-api-key=sk-2",
        "--aws-secret-access-key", "s", "--security-token", "t", "--api-base", "http://x", "--task", "text-to-text"),
        Map.of(), tmp);
    assertThat(cmd.redacted()).containsExactly("genai-bench", "benchmark", "--api-key", "***", "--model-api-key=***",
        "--aws-secret-access-key", "***", "--security-token", "***", "--api-base", "http://x", "--task",
        "text-to-text");
  }

  @Test
  void anEmptyCommandIsTheImagesEntrypointAndAModelDirectoryWithATokenizerIsKept() throws Exception {
    Files.writeString(Files.createDirectories(results.resolve("tok")).resolve("tokenizer.json"), "{}");
    Files.createDirectories(results.resolve("weights-only"));
    Container c = benchmark().withArgs("benchmark", "--model-tokenizer", "/benchmark-results/tok").build();
    assertThat(command(c, Map.of()).command()).containsExactly(tmp.resolve("venv/bin/genai-bench").toString(),
        "benchmark", "--model-tokenizer", results.resolve("tok").toString());
    Container noTokenizer = benchmark().withArgs("benchmark", "--model-tokenizer=/benchmark-results/weights-only")
        .withWorkingDir("/benchmark-results").build();
    JobCommand cmd = command(noTokenizer, Map.of());
    assertThat(cmd.command()).containsExactly(tmp.resolve("venv/bin/genai-bench").toString(), "benchmark",
        "--model-tokenizer=" + tmp.resolve("tokenizer"));
    assertThat(cmd.workDir()).isEqualTo(results);
  }

  @Test
  void aShellCommandFindsGenaiBenchOnThePathAndAnUnknownProgramIsLeftForTheStartToFail() {
    Container sh = benchmark().withCommand("sh", "-c").withArgs("genai-bench benchmark > /benchmark-results/log")
        .build();
    assertThat(command(sh, Map.of()).command()).containsExactly(JobCommand.resolve("sh", "/usr/bin:/bin"), "-c",
        "genai-bench benchmark > /benchmark-results/log");
    Container missing = benchmark().withCommand("no-such-program").build();
    assertThat(command(missing, Map.of()).command()).containsExactly("no-such-program");
  }

  @Test
  void modelplaneBenchSummarizeRunsThisDistributionAndWritesTheContainersTerminationFile() {
    Container c = new ContainerBuilder().withName("results").withImage("ghcr.io/modelplane/modelplane:0.1.0")
        .withArgs("bench", "summarize", "--experiment-dir", "/benchmark-results/run")
        .addNewVolumeMount().withName("results").withMountPath("/benchmark-results").withReadOnly(true)
        .endVolumeMount().build();
    JobCommand cmd = command(c, Map.of());
    assertThat(cmd.command()).containsExactly("/jdk/bin/java", "-cp", "x.jar", "Main", "bench", "summarize",
        "--experiment-dir", results.resolve("run").toString(), "--termination-log", termination.toString());
    assertThat(cmd.env()).containsEntry("PATH", "/usr/bin:/bin");
    Container explicit = new ContainerBuilder(c).withArgs("bench", "summarize", "--termination-log",
        "/dev/termination-log").build();
    assertThat(command(explicit, Map.of()).command()).endsWith("--termination-log", termination.toString())
        .containsOnlyOnce("--termination-log");
  }
}
