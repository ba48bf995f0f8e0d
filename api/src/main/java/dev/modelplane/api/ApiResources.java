package dev.modelplane.api;

import io.fabric8.kubernetes.api.model.HasMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The custom resource kinds modelplane defines and their generated CustomResourceDefinitions, as packaged in this
 * module's jar (written at build time from the Java types).
 */
public final class ApiResources {
  /** Classpath folder holding one {@code <group>_<plural>.yaml} file per CRD and the class index. */
  public static final String CRD_FOLDER = "META-INF/modelplane/crds/";

  private ApiResources() {
  }

  /** Every custom resource class, sorted by name. */
  public static List<Class<? extends HasMetadata>> resourceClasses() {
    List<Class<? extends HasMetadata>> classes = new ArrayList<>();
    for (String line : read("classes.txt").split("\n")) {
      if (!line.isBlank()) {
        try {
          classes.add(Class.forName(line.strip(), true, ApiResources.class.getClassLoader())
              .asSubclass(HasMetadata.class));
        } catch (ClassNotFoundException e) {
          throw new IllegalStateException("CRD index names a missing class: " + line, e);
        }
      }
    }
    return classes;
  }

  /** The CRD file name for a resource class: {@code <group>_<plural>.yaml}. */
  public static String crdFileName(Class<? extends HasMetadata> type) {
    return HasMetadata.getGroup(type) + "_" + HasMetadata.getPlural(type) + ".yaml";
  }

  /** The YAML text of the CRD for a resource class. */
  public static String crdYaml(Class<? extends HasMetadata> type) {
    return read(crdFileName(type));
  }

  /** All CRDs as one multi-document YAML stream, in class-name order, ready for {@code kubectl apply -f -}. */
  public static String allCrdsYaml() {
    StringBuilder out = new StringBuilder();
    for (Class<? extends HasMetadata> type : resourceClasses()) {
      if (!out.isEmpty()) {
        out.append("---\n");
      }
      out.append(crdYaml(type));
    }
    return out.toString();
  }

  private static String read(String name) {
    try (InputStream in = ApiResources.class.getClassLoader().getResourceAsStream(CRD_FOLDER + name)) {
      Objects.requireNonNull(in, () -> "missing resource " + CRD_FOLDER + name + " (was the api module built?)");
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
