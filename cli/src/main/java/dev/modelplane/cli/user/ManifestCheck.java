package dev.modelplane.cli.user;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.modelplane.api.ApiResources;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespaced;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Checks manifests of modelplane's kinds before anything is rendered or applied, so a typo is one line naming the
 * file, the object, the field path and the line ({@code up -f}, {@code render}) rather than a stack trace or a
 * field the cluster silently drops. Kinds outside modelplane's API groups pass unchecked.
 */
public final class ManifestCheck {
  private static final YAMLMapper TREE = new YAMLMapper();
  /** Only for looking up the fields of a type (the suggestions). */
  private static final JsonMapper STRICT = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  private static final YAMLMapper STRICT_YAML = YAMLMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();
  /** apiVersion → kind → class, for every CRD modelplane serves. */
  private static final Map<String, Map<String, Class<? extends HasMetadata>>> KINDS = kinds();

  private ManifestCheck() {
  }

  /**
   * Checks every YAML document of {@code text} (read from {@code file}); objects without a namespace are named as
   * in {@code defaultNamespace}. Throws a {@link UserError} on the first mistake.
   */
  public static void check(String file, String text, String defaultNamespace) {
    List<String> lines = text.lines().toList();
    int first = 0; // index of the current document's first line
    for (int i = 0; i <= lines.size(); i++) {
      if (i == lines.size() || lines.get(i).matches("---\\s*(#.*)?")) {
        checkDocument(file, String.join("\n", lines.subList(first, i)) + "\n", first, defaultNamespace);
        first = i + 1;
      }
    }
  }

  /** As {@link #check}, for a file applied as it is ({@code up -f}): namespace default; returns the bytes. */
  public static byte[] checked(String file, byte[] manifest) {
    check(file, new String(manifest, java.nio.charset.StandardCharsets.UTF_8), "default");
    return manifest;
  }

  private static void checkDocument(String file, String doc, int lineOffset, String defaultNamespace) {
    JsonNode node;
    try {
      node = TREE.readTree(doc);
    } catch (JsonProcessingException e) {
      throw new UserError(file + ": " + at(e.getLocation(), lineOffset) + "not valid YAML: "
          + yamlProblem(e), e);
    }
    if (node == null || !node.isObject() || node.isEmpty()) {
      return;
    }
    String apiVersion = node.path("apiVersion").asText("");
    String kind = node.path("kind").asText("");
    if (apiVersion.isEmpty() || kind.isEmpty()) {
      throw new UserError(file + ": " + at(null, lineOffset + 1) + "a document without "
          + (apiVersion.isEmpty() ? "apiVersion" : "kind") + " (every object needs apiVersion and kind)");
    }
    String group = apiVersion.contains("/") ? apiVersion.substring(0, apiVersion.indexOf('/')) : "";
    if (KINDS.keySet().stream().noneMatch(v -> v.startsWith(group + "/"))) {
      return; // not a modelplane API group: the cluster checks it
    }
    boolean kindInGroup = KINDS.entrySet().stream()
        .anyMatch(e -> e.getKey().startsWith(group + "/") && e.getValue().containsKey(kind));
    Class<? extends HasMetadata> type = KINDS.getOrDefault(apiVersion, Map.of()).get(kind);
    String who = kind + " " + name(node, defaultNamespace, type);
    if (type == null) {
      throw new UserError(file + ": " + who + ": " + unknownKind(apiVersion, kind, group, !kindInGroup));
    }
    try {
      STRICT_YAML.readValue(doc, type);
    } catch (JsonMappingException e) {
      JsonLocation where = fieldLocation(doc, FieldSuggestion.path(e.getPath())).orElse(e.getLocation());
      throw new UserError(file + ": " + who + ": " + at(where, lineOffset) + fieldProblem(e, type), e);
    } catch (JsonProcessingException e) {
      throw new UserError(file + ": " + at(e.getLocation(), lineOffset) + "not valid YAML: " + yamlProblem(e), e);
    }
  }

  /** Where the field at {@code path} ({@code spec.env[0].name}) starts in {@code doc}: its name's line and column. */
  public static Optional<JsonLocation> fieldLocation(String doc, String path) {
    String pointer = "/" + path.replaceAll("\\[(\\d+)]", ".$1").replace('.', '/');
    try (var parser = TREE.getFactory().createParser(doc)) {
      for (var token = parser.nextToken(); token != null; token = parser.nextToken()) {
        if (token == com.fasterxml.jackson.core.JsonToken.FIELD_NAME
            && parser.getParsingContext().pathAsPointer().toString().equals(pointer)) {
          return Optional.of(parser.currentTokenLocation());
        }
      }
    } catch (java.io.IOException e) {
      return Optional.empty();
    }
    return Optional.empty();
  }

  private static String unknownKind(String apiVersion, String kind, String group, boolean kindUnknownInGroup) {
    if (kindUnknownInGroup) {
      List<String> kinds = KINDS.entrySet().stream().filter(e -> e.getKey().startsWith(group + "/"))
          .flatMap(e -> e.getValue().keySet().stream()).distinct().sorted().toList();
      Optional<String> near = FieldSuggestion.closest(kind, kinds);
      return "unknown kind \"" + kind + "\" in " + apiVersion
          + near.map(k -> " (did you mean " + k + "?)").orElse(" (known: " + String.join(", ", kinds) + ")");
    }
    List<String> served = KINDS.entrySet().stream().filter(e -> e.getKey().startsWith(group + "/")
        && e.getValue().containsKey(kind)).map(Map.Entry::getKey).sorted().toList();
    return "unknown apiVersion \"" + apiVersion + "\" for kind " + kind + " (use " + String.join(" or ", served)
        + ")";
  }

  private static String name(JsonNode node, String defaultNamespace, Class<?> type) {
    JsonNode meta = node.path("metadata");
    String name = meta.path("name").asText("<no name>");
    String ns = meta.path("namespace").asText("");
    boolean namespaced = type == null || Namespaced.class.isAssignableFrom(type);
    return !namespaced ? name : (ns.isEmpty() ? defaultNamespace : ns) + "/" + name;
  }

  /** "line 3:7: " (lines of the whole file), or nothing when the parser did not say. */
  private static String at(JsonLocation location, int lineOffset) {
    if (location == null) {
      return lineOffset > 0 ? "line " + lineOffset + ": " : "";
    }
    if (location.getLineNr() < 1) {
      return "";
    }
    return "line " + (location.getLineNr() + lineOffset) + ":" + location.getColumnNr() + ": ";
  }

  private static String fieldProblem(JsonMappingException e, Class<?> type) {
    String path = FieldSuggestion.path(e.getPath());
    if (e instanceof UnrecognizedPropertyException u) {
      String parent = path.contains(".") ? path.substring(0, path.lastIndexOf('.')) : "";
      return "unknown field \"" + path + "\"" + FieldSuggestion.suggest(STRICT, type, parent, u.getPropertyName(),
          u.getKnownPropertyIds()).map(s -> " (did you mean " + s + "?)").orElse("");
    }
    if (e instanceof InvalidFormatException f) {
      String near = f.getTargetType().isEnum() && f.getValue() instanceof String v ? FieldSuggestion.closest(v,
          FieldSuggestion.enumValues(f.getTargetType())).map(s -> " (did you mean " + s + "?)").orElse("") : "";
      return path + ": cannot read " + quote(f.getValue()) + " as " + FieldSuggestion.typeName(f.getTargetType())
          + near;
    }
    if (e instanceof MismatchedInputException m && m.getTargetType() != null) {
      return path + ": expected " + FieldSuggestion.typeName(m.getTargetType());
    }
    String message = e.getOriginalMessage();
    return (path.isEmpty() ? "" : path + ": ") + (message == null ? e.getClass().getSimpleName()
        : message.lines().findFirst().orElse(""));
  }

  private static String quote(Object value) {
    return value instanceof String s ? "\"" + s + "\"" : String.valueOf(value);
  }

  /** SnakeYAML's problem in words, without its multi-line excerpt of the file. */
  private static String yamlProblem(JsonProcessingException e) {
    Throwable cause = e.getCause();
    if (cause instanceof org.yaml.snakeyaml.error.MarkedYAMLException m && m.getProblem() != null) {
      return m.getProblem();
    }
    String message = e.getOriginalMessage();
    return message == null ? e.getClass().getSimpleName() : message.lines().findFirst().orElse("").strip();
  }

  private static Map<String, Map<String, Class<? extends HasMetadata>>> kinds() {
    Map<String, Map<String, Class<? extends HasMetadata>>> out = new LinkedHashMap<>();
    for (Class<? extends HasMetadata> c : ApiResources.resourceClasses()) {
      out.computeIfAbsent(HasMetadata.getApiVersion(c), v -> new LinkedHashMap<>()).put(HasMetadata.getKind(c), c);
    }
    return out;
  }
}
