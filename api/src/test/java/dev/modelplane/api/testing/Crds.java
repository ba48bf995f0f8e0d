package dev.modelplane.api.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.modelplane.api.ApiResources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads the generated CRDs and navigates their schemas with the path notation of {@code hack/crd-parity}. */
public final class Crds {
  /** A YAML mapper for tests. */
  public static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  private Crds() {
  }

  /** The generated CRD of a resource class, as a JSON tree. */
  public static JsonNode crd(Class<? extends HasMetadata> type) {
    try {
      return YAML.readTree(ApiResources.crdYaml(type));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The {@code openAPIV3Schema} of the (single) version of a resource class's CRD. */
  public static JsonNode schema(Class<? extends HasMetadata> type) {
    return crd(type).path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema");
  }

  /**
   * The schema node at a path such as {@code spec.targetPorts[].number} or {@code spec.selector.matchLabels{}}:
   * {@code .name} is a property, {@code []} the list items, {@code {}} the map values.
   */
  public static JsonNode at(Class<? extends HasMetadata> type, String path) {
    JsonNode node = schema(type);
    for (String step : path.replace("[]", ".[]").replace("{}", ".{}").split("\\.")) {
      if (step.isEmpty()) {
        continue;
      }
      node = switch (step) {
        case "[]" -> node.path("items");
        case "{}" -> node.path("additionalProperties");
        default -> node.path("properties").path(step);
      };
      if (node.isMissingNode()) {
        throw new AssertionError("no schema at " + path + " (failed at '" + step + "') in " + type.getSimpleName());
      }
    }
    return node;
  }

  /** The repository root (the reactor directory). */
  public static Path repoRoot() {
    String configured = System.getProperty("modelplane.repo.root");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.isDirectory(dir.resolve("deploy"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("cannot find the repository root from " + Path.of("").toAbsolutePath());
    }
    return dir;
  }
}
