package dev.modelplane.cli.plan;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.modelplane.cli.user.ManifestCheck;
import dev.modelplane.cli.user.UserError;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A manifest file a plan reads its model from: checked as {@code render} and {@code up -f} check files (so a typo is
 * the same one-line error, and every object of modelplane's kinds reads as its API type), its documents kept as YAML
 * trees: what {@code --emit} edits and writes back, keeping every field the user wrote.
 *
 * @param file the file's name as given
 * @param documents the non-empty documents, in file order
 */
record ManifestInput(String file, List<Document> documents) {
  static final String LLMKUBE = "inference.llmkube.dev/v1alpha1";
  static final String OME = "ome.io/v1beta1";
  static final String OTTERSCALE = "model.otterscale.io/v1alpha1";
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final Set<String> CLUSTER_SCOPED = Set.of("ClusterBaseModel", "ClusterServingRuntime");

  /**
   * One YAML document.
   *
   * @param tree the document as written
   * @param text the document's text (for locating fields)
   * @param firstLine the number of lines of the file before it
   */
  record Document(ObjectNode tree, String text, int firstLine) {
    String apiVersion() {
      return tree.path("apiVersion").asText("");
    }

    String kind() {
      return tree.path("kind").asText("");
    }

    String name() {
      return tree.path("metadata").path("name").asText("");
    }

    String namespace() {
      return tree.path("metadata").path("namespace").asText("default");
    }

    boolean is(String apiVersion, String... kinds) {
      return apiVersion().equals(apiVersion) && List.of(kinds).contains(kind());
    }

    /** "InferenceService ns/name", or "ClusterBaseModel name" for cluster-scoped kinds. */
    String who() {
      return kind() + " " + (CLUSTER_SCOPED.contains(kind()) ? name() : namespace() + "/" + name());
    }

    /** "line 12:5: " where the field at {@code path} ({@code spec.source}) starts, or "" when it is not there. */
    String at(String path) {
      return ManifestCheck.fieldLocation(text, path)
          .map(l -> "line " + (l.getLineNr() + firstLine) + ":" + l.getColumnNr() + ": ").orElse("");
    }
  }

  /** Reads and checks {@code path}; every mistake is a {@link UserError} naming the file (and line). */
  static ManifestInput read(Path path) {
    String file = path.toString();
    String text;
    try {
      text = Files.readString(path);
    } catch (IOException e) {
      throw new UserError(file + ": cannot read: " + (e instanceof java.nio.file.NoSuchFileException
          ? "no such file" : e.getMessage()), e);
    }
    ManifestCheck.check(file, text, "default");
    List<Document> documents = new ArrayList<>();
    List<String> lines = text.lines().toList();
    int first = 0;
    for (int i = 0; i <= lines.size(); i++) {
      if (i == lines.size() || lines.get(i).matches("---\\s*(#.*)?")) {
        String doc = String.join("\n", lines.subList(first, i)) + "\n";
        int offset = first;
        tree(file, doc).ifPresent(t -> documents.add(new Document(t, doc, offset)));
        first = i + 1;
      }
    }
    return new ManifestInput(file, List.copyOf(documents));
  }

  private static Optional<ObjectNode> tree(String file, String doc) {
    try {
      JsonNode node = YAML.readTree(doc);
      return node instanceof ObjectNode o && !o.isEmpty() ? Optional.of(o) : Optional.empty();
    } catch (JsonProcessingException e) {
      throw new UserError(file + ": not valid YAML: " + e.getOriginalMessage(), e); // ManifestCheck said it first
    }
  }

  /** The documents of {@code apiVersion} whose kind is one of {@code kinds}. */
  List<Document> all(String apiVersion, String... kinds) {
    return documents.stream().filter(d -> d.is(apiVersion, kinds)).toList();
  }

  /** The document of {@code apiVersion}, one of {@code kinds}, named {@code name}. */
  Optional<Document> named(String name, String apiVersion, String... kinds) {
    return all(apiVersion, kinds).stream().filter(d -> d.name().equals(name)).findFirst();
  }

  /** A {@link UserError}: "file: Kind ns/name: line L:C: problem". */
  UserError error(Document doc, String field, String problem) {
    return new UserError(file + ": " + doc.who() + ": " + doc.at(field) + problem);
  }
}
