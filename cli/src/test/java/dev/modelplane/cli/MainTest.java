package dev.modelplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelplane.api.ApiResources;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class MainTest {
  record Result(int code, String out, String err) {
  }

  static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = Main.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    int code = cli.execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void versionNamesTheProject() {
    Result r = run("--version");
    assertThat(r.code()).isZero();
    assertThat(r.out()).startsWith("modelplane ").doesNotContain("${project.version}");
  }

  @Test
  void helpListsTheSubcommands() {
    Result r = run("help");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("crds", "help");
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(strings = {"operator", "render", "crds", "dev-cluster",
      "dev-cluster up", "dev-cluster down", "dev-cluster status", "model-agent", "router", "simulator", "plan"})
  void everySubcommandAnswersHelp(String command) {
    List<String> args = new java.util.ArrayList<>(List.of(command.split(" ")));
    args.add("--help");
    Result r = run(args.toArray(String[]::new));
    assertThat(r.code()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("Usage: modelplane " + command);
    assertThat(r.err()).isEmpty();
  }

  @Test
  void crdsPrintsEveryCrdAsOneStream() throws Exception {
    Result r = run("crds");
    assertThat(r.code()).isZero();
    List<JsonNode> docs = new ArrayList<>();
    try (MappingIterator<JsonNode> it = new ObjectMapper(new YAMLFactory()).readerFor(JsonNode.class)
        .readValues(r.out())) {
      it.forEachRemaining(docs::add);
    }
    assertThat(docs).hasSize(ApiResources.resourceClasses().size());
    assertThat(docs).allSatisfy(d -> {
      assertThat(d.path("kind").asText()).isEqualTo("CustomResourceDefinition");
      assertThat(d.path("spec").path("names").path("categories").toString()).contains("modelplane");
    });
  }

  @Test
  void crdsCanWriteFiles(@TempDir Path dir) throws Exception {
    Result r = run("crds", "--output-dir", dir.toString());
    assertThat(r.code()).isZero();
    try (var files = Files.list(dir)) {
      assertThat(files.count()).isEqualTo(ApiResources.resourceClasses().size());
    }
  }

  @Test
  void crdsListNamesKindsAndScopes() {
    Result r = run("crds", "--list");
    assertThat(r.code()).isZero();
    assertThat(r.out()).contains("inference.networking.k8s.io/v1", "InferencePool", "Namespaced");
    assertThat(r.out().lines().map(l -> String.join(" ", l.trim().split("\\s+"))))
        .contains("inference.networking.x-k8s.io/v1alpha2 InferenceModelRewrite Namespaced",
            "llm-d.ai/v1alpha2 InferenceObjective Namespaced", "llm-d.ai/v1alpha2 InferenceModelRewrite Namespaced");
  }

  @Test
  void anUnknownCommandIsAUsageError() {
    Result r = run("deploy-everything");
    assertThat(r.code()).isEqualTo(2);
    assertThat(r.err()).contains("Unmatched argument", "deploy-everything");
  }
}
