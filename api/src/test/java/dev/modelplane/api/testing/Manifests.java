package dev.modelplane.api.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import dev.modelplane.api.ApiResources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** Loads manifests (multi-document YAML) and maps them to our resource classes. */
public final class Manifests {
  private Manifests() {
  }

  /** Every document of a YAML file, as JSON trees. */
  public static List<JsonNode> documents(Path file) {
    try (MappingIterator<JsonNode> docs = Crds.YAML.readerFor(JsonNode.class).readValues(file.toFile())) {
      List<JsonNode> out = new ArrayList<>();
      while (docs.hasNext()) {
        JsonNode doc = docs.next();
        if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
          out.add(doc);
        }
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }

  /** The resource class for a manifest's apiVersion and kind, if it is one of ours. */
  public static Optional<Class<? extends HasMetadata>> classFor(JsonNode manifest) {
    String apiVersion = manifest.path("apiVersion").asText();
    String kind = manifest.path("kind").asText();
    return ApiResources.resourceClasses().stream()
        .filter(c -> HasMetadata.getApiVersion(c).equals(apiVersion) && HasMetadata.getKind(c).equals(kind))
        .findFirst();
  }

  /** Every {@code .yaml} file under a folder, sorted. */
  public static List<Path> yamlFiles(Path folder) {
    try (Stream<Path> files = Files.walk(folder)) {
      return files.filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml")).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
