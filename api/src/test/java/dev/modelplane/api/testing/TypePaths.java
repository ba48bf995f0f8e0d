package dev.modelplane.api.testing;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Field paths of our own API types ({@code dev.modelplane.*}), in the notation of {@code hack/crd-parity}:
 * {@code spec.a.b}, {@code []} for list items, {@code {}} for map values. Fields inherited from fabric8's Kubernetes
 * model are not ours and are not listed.
 */
public final class TypePaths {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final int MAX_DEPTH = 12;

  private TypePaths() {
  }

  /** Every leaf path of our own fields reachable from a resource class. */
  public static Set<String> leaves(Class<?> resource) {
    Set<String> out = new TreeSet<>();
    for (String root : List.of("spec", "status")) {
      BeanPropertyDefinition def = property(MAPPER.constructType(resource), root);
      if (def != null) {
        leaves(def.getPrimaryType(), root, out, 0);
      }
    }
    return out;
  }

  /** The paths of {@link #leaves} that {@code manifest} sets (in any list item or map entry). */
  public static Set<String> covered(Class<?> resource, JsonNode manifest) {
    Set<String> out = new TreeSet<>();
    for (String root : List.of("spec", "status")) {
      BeanPropertyDefinition def = property(MAPPER.constructType(resource), root);
      if (def != null && manifest.has(root)) {
        covered(def.getPrimaryType(), manifest.get(root), root, out, 0);
      }
    }
    return out;
  }

  private static void leaves(JavaType type, String path, Set<String> out, int depth) {
    if (depth > MAX_DEPTH) {
      return;
    }
    if (type.isCollectionLikeType() || type.isArrayType()) {
      leaves(type.getContentType(), path + "[]", out, depth + 1);
    } else if (type.isMapLikeType()) {
      leaves(type.getContentType(), path + "{}", out, depth + 1);
    } else if (isOwn(type) && !type.isEnumType()) {
      boolean any = false;
      for (BeanPropertyDefinition def : ownProperties(type)) {
        any = true;
        leaves(def.getPrimaryType(), path + "." + def.getName(), out, depth + 1);
      }
      if (!any) {
        out.add(path);
      }
    } else {
      out.add(path);
    }
  }

  private static void covered(JavaType type, JsonNode value, String path, Set<String> out, int depth) {
    if (depth > MAX_DEPTH || value == null || value.isNull()) {
      return;
    }
    if (type.isCollectionLikeType() || type.isArrayType()) {
      value.forEach(item -> covered(type.getContentType(), item, path + "[]", out, depth + 1));
    } else if (type.isMapLikeType()) {
      value.forEach(item -> covered(type.getContentType(), item, path + "{}", out, depth + 1));
    } else if (isOwn(type) && !type.isEnumType()) {
      boolean any = false;
      for (BeanPropertyDefinition def : ownProperties(type)) {
        any = true;
        covered(def.getPrimaryType(), value.get(def.getName()), path + "." + def.getName(), out, depth + 1);
      }
      if (!any) {
        out.add(path);
      }
    } else {
      out.add(path);
    }
  }

  private static boolean isOwn(JavaType type) {
    return type.getRawClass().getName().startsWith("dev.modelplane.");
  }

  private static List<BeanPropertyDefinition> ownProperties(JavaType type) {
    return MAPPER.getSerializationConfig().introspect(type).findProperties().stream()
        .filter(def -> {
          AnnotatedMember member = def.getPrimaryMember();
          return member != null && member.getDeclaringClass().getName().startsWith("dev.modelplane.");
        })
        .toList();
  }

  private static BeanPropertyDefinition property(JavaType type, String name) {
    return MAPPER.getSerializationConfig().introspect(type).findProperties().stream()
        .filter(def -> def.getName().equals(name)).findFirst().orElse(null);
  }
}
