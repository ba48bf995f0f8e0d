package dev.modelplane.operator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.client.CustomResource;
import java.io.IOException;
import java.lang.reflect.ParameterizedType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A CRD description is a promise to the user; this holds the code to it, by reading the generated CRDs next to the
 * sources of everything that acts on the objects (operator, router, CLI):
 *
 * <ul>
 *   <li>every condition type a {@code status.conditions} description names is a string the code writes;</li>
 *   <li>every field of an OME or LLMKube spec that no code reads (neither by its accessor nor by its JSON name) says
 *       so in its description: that it is recorded, informational or not acted on.</li>
 * </ul>
 */
class CrdPromisesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path ROOT = Path.of("..");
  /** A condition type as descriptions write it: a CamelCase word ending like Kubernetes condition types do. */
  private static final Pattern CONDITION = Pattern.compile(
      "(?<![\\w<])([A-Z][a-z]+(?:[A-Z][a-z]+)*(?:Ready|Degraded|Available|Progressing|Succeeded|Accepted|Resolved"
          + "|Selected|Programmed|ResolvedRefs)|Ready|Degraded|Available|Progressing)(?![\\w>])");
  /** Words with which a description admits that a field is kept but not acted on. */
  private static final List<String> ADMISSIONS = List.of("not acted on", "recorded", "informational",
      "for compatibility", "ignored", "descriptive", "not read");
  private static String sources;

  @BeforeAll
  static void readSources() throws IOException {
    StringBuilder all = new StringBuilder();
    for (String module : List.of("operator", "router", "cli", "common")) {
      try (Stream<Path> files = Files.walk(ROOT.resolve(module).resolve("src/main/java"))) {
        for (Path f : files.filter(p -> p.toString().endsWith(".java")).toList()) {
          all.append(Files.readString(f)).append('\n');
        }
      }
    }
    sources = all.toString();
  }

  private static List<Path> crds() throws IOException {
    try (Stream<Path> files = Files.list(ROOT.resolve("deploy/crds"))) {
      return files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
    }
  }

  @Test
  void everyConditionTypeADescriptionNamesIsWrittenByTheCode() throws IOException {
    Set<String> unwritten = new TreeSet<>();
    int named = 0;
    for (Path crd : crds()) {
      for (JsonNode version : YAML.readTree(crd.toFile()).path("spec").path("versions")) {
        String text = version.path("schema").path("openAPIV3Schema").path("properties").path("status")
            .path("properties").path("conditions").path("description").asText("");
        Matcher m = CONDITION.matcher(text);
        while (m.find()) {
          named++;
          if (!written(m.group(1))) {
            unwritten.add(crd.getFileName() + ": " + m.group(1));
          }
        }
      }
    }
    assertThat(named).as("condition types named in descriptions").isGreaterThan(5);
    assertThat(unwritten).as("condition types a description promises but no code writes").isEmpty();
  }

  /** Written as a literal, or as a component's name followed by {@code Ready} (OME's per-component conditions). */
  private static boolean written(String type) {
    if (sources.contains("\"" + type + "\"")) {
      return true;
    }
    String component = type.endsWith("Ready") ? type.substring(0, type.length() - 5).toLowerCase(Locale.ROOT) : null;
    return component != null && !component.isEmpty() && sources.contains("\"" + component + "\"")
        && sources.contains("+ \"Ready\"");
  }

  @Test
  void everySpecFieldNoCodeReadsSaysItIsNotActedOn() throws IOException {
    List<String> silent = new ArrayList<>();
    int checked = 0;
    for (Path crd : crds()) {
      JsonNode root = YAML.readTree(crd.toFile());
      String group = root.path("spec").path("group").asText();
      if (!group.equals("ome.io") && !group.equals("inference.llmkube.dev")) {
        continue;
      }
      String kind = root.path("spec").path("names").path("kind").asText();
      Class<?> type = kindClass(group, kind);
      JsonNode schema = root.path("spec").path("versions").get(0).path("schema").path("openAPIV3Schema")
          .path("properties").path("spec");
      Class<?> spec = specClass(type);
      checked += walk(spec, schema, kind + ".spec", new HashSet<>(), silent);
    }
    assertThat(checked).as("spec fields checked").isGreaterThan(100);
    assertThat(silent).as("spec fields no code reads whose description does not say so (say it is recorded and "
        + "not acted on, or make the code act on it)").isEmpty();
  }

  private static int walk(Class<?> type, JsonNode schema, String path, Set<Class<?>> seen, List<String> silent) {
    if (!type.getName().startsWith("dev.modelplane.api.") || !seen.add(type) || type.isEnum()) {
      return 0;
    }
    int checked = 0;
    JavaType javaType = JSON.constructType(type);
    for (BeanPropertyDefinition p : JSON.getSerializationConfig().introspect(javaType).findProperties()) {
      if (p.getField() == null && p.getGetter() == null) {
        continue;
      }
      if (p.getField() != null && !p.getField().getDeclaringClass().getName().startsWith("dev.modelplane.api.")) {
        continue; // a Kubernetes type's own field (Container, PodSpec), read by Kubernetes
      }
      JsonNode property = schema.path("properties").path(p.getName());
      if (property.isMissingNode()) {
        continue;
      }
      checked++;
      String where = path + "." + p.getName();
      String description = property.path("description").asText("").toLowerCase(Locale.ROOT);
      if (!read(p.getInternalName(), p.getName()) && ADMISSIONS.stream().noneMatch(description::contains)) {
        silent.add(where);
      }
      Class<?> child = elementType(p);
      JsonNode childSchema = property.has("items") ? property.path("items")
          : property.has("additionalProperties") ? property.path("additionalProperties") : property;
      checked += walk(child, childSchema, where, seen, silent);
    }
    return checked;
  }

  /** Whether any code reads the field: its accessor, a method reference to it, or its JSON name as a literal. */
  private static boolean read(String javaName, String jsonName) {
    String cap = Character.toUpperCase(javaName.charAt(0)) + javaName.substring(1);
    return Stream.of("." + javaName + "()", ".get" + cap + "()", ".is" + cap + "()", "::" + javaName, "::get" + cap,
        "\"" + jsonName + "\"").anyMatch(sources::contains);
  }

  private static Class<?> elementType(BeanPropertyDefinition p) {
    JavaType t = p.getPrimaryType();
    while (t.isContainerType()) {
      t = t.getContentType();
    }
    return t.getRawClass();
  }

  private static Class<?> kindClass(String group, String kind) {
    String pkg = group.equals("ome.io") ? "dev.modelplane.api.ome.v1beta1." : "dev.modelplane.api.llmkube.v1alpha1.";
    try {
      return Class.forName(pkg + kind);
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException("no class for " + group + " " + kind, e);
    }
  }

  private static Class<?> specClass(Class<?> resource) {
    if (resource.getGenericSuperclass() instanceof ParameterizedType t && t.getRawType() == CustomResource.class) {
      return (Class<?>) t.getActualTypeArguments()[0];
    }
    throw new IllegalStateException(resource + " is not a CustomResource<Spec, Status>");
  }
}
