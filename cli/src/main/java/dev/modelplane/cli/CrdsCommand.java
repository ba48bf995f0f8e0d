package dev.modelplane.cli;

import dev.modelplane.api.ApiResources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code modelplane crds}: the CustomResourceDefinitions of every modelplane kind. */
@Command(
    name = "crds",
    mixinStandardHelpOptions = true,
    description = {"Prints the CustomResourceDefinitions of every modelplane kind as one YAML stream.",
        "Install them with: modelplane crds | kubectl apply --server-side -f -"})
final class CrdsCommand implements Callable<Integer> {
  @Spec
  picocli.CommandLine.Model.CommandSpec spec;

  @Option(names = {"-o", "--output-dir"}, paramLabel = "DIR",
      description = "Write one <group>_<plural>.yaml file per CRD into DIR instead of printing.")
  Path outputDir;

  @Option(names = "--list", description = "List the kinds (apiVersion, kind, scope) instead of printing the CRDs.")
  boolean list;

  @Override
  public Integer call() throws IOException {
    var out = spec.commandLine().getOut();
    if (list) {
      for (Class<? extends HasMetadata> type : ApiResources.resourceClasses()) {
        boolean namespaced = io.fabric8.kubernetes.api.model.Namespaced.class.isAssignableFrom(type);
        out.printf("%-38s %-20s %s%n", HasMetadata.getApiVersion(type), HasMetadata.getKind(type),
            namespaced ? "Namespaced" : "Cluster");
      }
    } else if (outputDir != null) {
      Files.createDirectories(outputDir);
      for (Class<? extends HasMetadata> type : ApiResources.resourceClasses()) {
        Path file = outputDir.resolve(ApiResources.crdFileName(type));
        Files.writeString(file, ApiResources.crdYaml(type));
        out.println(file);
      }
    } else {
      out.print(ApiResources.allCrdsYaml());
    }
    out.flush();
    return 0;
  }
}
