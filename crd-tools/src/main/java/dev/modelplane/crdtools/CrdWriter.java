package dev.modelplane.crdtools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.crdv2.generator.CRDGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.model.annotation.Group;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;
import org.yaml.snakeyaml.DumperOptions;

/**
 * Generates one CustomResourceDefinition file per custom resource class found in a class directory and writes it
 * as {@code <group>_<plural>.yaml}. On top of fabric8's generator it adds the Javadoc of every type and field as
 * the schema description, the schema patches of {@link SchemaPatch}, and the {@value #CATEGORY} category.
 *
 * <p>Usage: {@code CrdWriter <classes dir> <output dir>}. Files in the output directory that no class produces any
 * more are removed, so the directory always mirrors the types.
 */
public final class CrdWriter {
  /** Category every modelplane CRD belongs to, so that {@code kubectl get modelplane} lists all our objects. */
  public static final String CATEGORY = "modelplane";
  static final String HEADER = "# Generated from the Java types in the api module. Do not edit: change the types and rebuild.\n";

  private final ObjectMapper yaml = new ObjectMapper(yamlFactory());

  private static YAMLFactory yamlFactory() {
    DumperOptions options = new DumperOptions();
    options.setSplitLines(false);
    options.setWidth(Integer.MAX_VALUE);
    return YAMLFactory.builder()
        .dumperOptions(options)
        .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
        .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
        .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
        .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
        .build();
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 2) {
      System.err.println("usage: CrdWriter <classes dir> <output dir>");
      System.exit(2);
    }
    List<Path> written = new CrdWriter().write(Path.of(args[0]), Path.of(args[1]));
    System.out.println("modelplane crd-tools: wrote " + written.size() + " CRDs to " + args[1]);
  }

  /** Generates the CRDs of every custom resource class under {@code classesDir} into {@code outputDir}. */
  public List<Path> write(Path classesDir, Path outputDir) throws IOException {
    List<Class<? extends HasMetadata>> resources = findCustomResources(classesDir);
    if (resources.isEmpty()) {
      throw new IllegalStateException("no custom resource classes under " + classesDir);
    }
    SchemaDescriptions descriptions = new SchemaDescriptions(loadIndex());
    Path scratch = Files.createTempDirectory("modelplane-crds");
    try {
      new CRDGenerator()
          .customResourceClasses(resources)
          .forCRDVersions("v1")
          .withParallelGenerationEnabled(false)
          .inOutputDir(scratch.toFile())
          .generate();
      Files.createDirectories(outputDir);
      List<Path> written = new ArrayList<>();
      for (Class<? extends HasMetadata> type : resources) {
        written.add(writeOne(type, scratch, outputDir, descriptions));
      }
      removeStale(outputDir, written);
      writeIndexes(resources, classesDir, outputDir);
      return written;
    } finally {
      try (Stream<Path> files = Files.walk(scratch)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private Path writeOne(Class<? extends HasMetadata> type, Path scratch, Path outputDir,
      SchemaDescriptions descriptions) throws IOException {
    String group = HasMetadata.getGroup(type);
    String plural = HasMetadata.getPlural(type);
    Path generated = scratch.resolve(plural + "." + group + "-v1.yml");
    ObjectNode crd = (ObjectNode) yaml.readTree(generated.toFile());
    ObjectNode spec = (ObjectNode) crd.get("spec");
    ObjectNode names = (ObjectNode) spec.get("names");
    ArrayNode categories = names.has("categories") ? (ArrayNode) names.get("categories") : names.putArray("categories");
    if (!containsText(categories, CATEGORY)) {
      categories.add(CATEGORY);
    }
    for (JsonNode version : spec.withArray("versions")) {
      orderPrinterColumns(type, (ObjectNode) version);
      JsonNode schema = version.path("schema").path("openAPIV3Schema");
      if (schema instanceof ObjectNode root) {
        descriptions.apply(type, root);
        SchemaCleanup.apply(root);
      }
    }
    Path target = outputDir.resolve(group + "_" + plural + ".yaml");
    Files.writeString(target, HEADER + yaml.writeValueAsString(crd));
    return target;
  }

  /**
   * Lists the resource classes twice: next to the CRDs (so tools can map a file back to its class) and as a
   * {@code ServiceLoader} file that fabric8's deserializer reads, so that YAML of our kinds parses into our types.
   */
  private static void writeIndexes(List<Class<? extends HasMetadata>> resources, Path classesDir, Path outputDir)
      throws IOException {
    StringBuilder names = new StringBuilder();
    resources.stream().map(Class::getName).sorted().forEach(n -> names.append(n).append('\n'));
    Files.writeString(outputDir.resolve("classes.txt"), names);
    Path services = classesDir.resolve("META-INF/services/io.fabric8.kubernetes.api.model.KubernetesResource");
    Files.createDirectories(services.getParent());
    Files.writeString(services, names);
  }

  /**
   * Keeps printer columns in the order the class declares them (the generator sorts them by name), without the
   * default priority 0.
   */
  private static void orderPrinterColumns(Class<?> type, ObjectNode version) {
    if (!(version.get("additionalPrinterColumns") instanceof ArrayNode columns)) {
      return;
    }
    List<String> declared = new ArrayList<>();
    for (var column : type.getAnnotationsByType(io.fabric8.crd.generator.annotation.AdditionalPrinterColumn.class)) {
      declared.add(column.name());
    }
    List<JsonNode> sorted = new ArrayList<>();
    columns.forEach(sorted::add);
    sorted.sort(Comparator.comparingInt(c -> {
      int index = declared.indexOf(c.path("name").asText());
      return index < 0 ? Integer.MAX_VALUE : index;
    }));
    columns.removeAll();
    for (JsonNode column : sorted) {
      // The apiserver drops a zero priority (its default), so a CRD that carries it never equals what is stored:
      // every server-side apply by another field manager would then conflict on spec.versions.
      if (column instanceof ObjectNode c && c.path("priority").isNumber() && c.path("priority").asInt() == 0) {
        c.remove("priority");
      }
      columns.add(column);
    }
  }

  private static boolean containsText(ArrayNode array, String text) {
    for (JsonNode node : array) {
      if (text.equals(node.asText())) {
        return true;
      }
    }
    return false;
  }

  private static void removeStale(Path outputDir, List<Path> written) throws IOException {
    try (Stream<Path> files = Files.list(outputDir)) {
      for (Path file : files.toList()) {
        if (file.toString().endsWith(".yaml") && !written.contains(file)
            && Files.readString(file).startsWith(HEADER)) {
          Files.delete(file);
        }
      }
    }
  }

  private static Properties loadIndex() throws IOException {
    Properties index = new Properties();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    for (var url : java.util.Collections.list(loader.getResources(JavadocIndexProcessor.INDEX))) {
      try (InputStream in = url.openStream(); var reader = new java.io.InputStreamReader(in,
          java.nio.charset.StandardCharsets.UTF_8)) {
        index.load(reader);
      }
    }
    return index;
  }

  @SuppressWarnings("unchecked")
  static List<Class<? extends HasMetadata>> findCustomResources(Path classesDir) throws IOException {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    List<Class<? extends HasMetadata>> found = new ArrayList<>();
    try (Stream<Path> files = Files.walk(classesDir)) {
      for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
        String name = classesDir.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        if (name.endsWith("package-info") || name.endsWith("module-info")) {
          continue;
        }
        Class<?> type;
        try {
          type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
          throw new IllegalStateException("cannot load " + name + " from " + classesDir, e);
        }
        if (HasMetadata.class.isAssignableFrom(type) && type.isAnnotationPresent(Group.class)
            && !Modifier.isAbstract(type.getModifiers())) {
          found.add((Class<? extends HasMetadata>) type);
        }
      }
    }
    return found;
  }
}
