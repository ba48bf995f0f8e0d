package dev.modelplane.cli;

import dev.modelplane.cli.user.ManifestCheck;
import dev.modelplane.operator.render.ManifestRenderer;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code modelplane render}: the objects the operator would create, as YAML, without a cluster. */
@Command(
    name = "render",
    mixinStandardHelpOptions = true,
    description = {"Prints, as YAML, the objects the operator would create for the given manifests: for every "
        + "LLMKube InferenceService its Deployment, Service, HorizontalPodAutoscaler and model-cache claim, with its "
        + "Model resolved from the same files; for every OME InferenceService the objects of each component, with "
        + "its base model, fine-tuned weight and serving runtime resolved (or chosen) from the same files. The "
        + "runtime chosen and every warning go to stderr; the exit code is 1 when a service cannot be rendered.",
        "Examples: modelplane render -f deploy/samples/llmkube/",
        "          modelplane render -f deploy/samples/ome/ -f deploy/runtimes/"})
final class RenderCommand implements Callable<Integer> {
  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = {"-f", "--filename"}, required = true, arity = "1..*", paramLabel = "FILE",
      description = "Manifest files or directories (*.yaml, *.yml); '-' reads stdin.")
  List<String> files;

  @Option(names = {"-n", "--namespace"}, defaultValue = "default",
      description = "Namespace of manifests without one. Default: ${DEFAULT-VALUE}.")
  String namespace;

  @Mixin
  OperatorSettingsOptions settings;

  @Override
  public Integer call() throws IOException {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    List<String> messages = new ArrayList<>();
    List<HasMetadata> manifests = new ArrayList<>();
    for (String name : files) {
      for (var file : read(name).entrySet()) {
        ManifestCheck.check(file.getKey(), file.getValue(), namespace);
        manifests.addAll(ManifestRenderer.parse(file.getValue(), messages));
      }
    }
    ManifestRenderer.Result result = ManifestRenderer.render(manifests, settings.settings(spec.commandLine()),
        namespace);
    out.print(result.yaml());
    out.flush();
    messages.addAll(result.messages());
    messages.stream().map(RenderCommand::severityFirst).forEach(err::println);
    err.flush();
    return result.failed() ? 1 : 0;
  }

  /** "Kind ns/name: error: what" → "error: Kind ns/name: what", as kubectl puts it (likewise warnings). */
  static String severityFirst(String message) {
    var m = java.util.regex.Pattern.compile("^(.*?): (error|warning): (.*)$", java.util.regex.Pattern.DOTALL)
        .matcher(message);
    return m.matches() ? m.group(2) + ": " + m.group(1) + ": " + m.group(3) : message;
  }

  /** File name → text: stdin, one file, or the YAML files of a directory. */
  private static Map<String, String> read(String name) throws IOException {
    if (name.equals("-")) {
      return Map.of("<stdin>", new String(System.in.readAllBytes(), StandardCharsets.UTF_8));
    }
    Path path = Path.of(name);
    Map<String, String> texts = new LinkedHashMap<>();
    if (Files.isDirectory(path)) {
      try (var stream = Files.list(path)) {
        for (Path p : stream.filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
            .sorted().toList()) {
          texts.put(p.toString(), Files.readString(p));
        }
      }
      return texts;
    }
    texts.put(name, Files.readString(path));
    return texts;
  }
}
