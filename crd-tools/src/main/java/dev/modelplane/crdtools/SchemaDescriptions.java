package dev.modelplane.crdtools;

import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Copies Javadoc from the {@link JavadocIndexProcessor} index into an OpenAPI schema by walking the schema and the
 * Java type side by side, and applies {@link SchemaPatch}es and {@link KnownSchemas} on the way. Types outside {@code dev.modelplane}
 * (fabric8's Kubernetes model) are left as the generator made them.
 */
final class SchemaDescriptions {
  private static final String OWN_PACKAGE = "dev.modelplane.";

  private final Properties index;
  private final ObjectMapper mapper = new ObjectMapper();

  SchemaDescriptions(Properties index) {
    this.index = index;
  }

  void apply(Class<?> resource, ObjectNode schema) {
    describeIfMissing(schema, index.getProperty(resource.getName()));
    walk(mapper.constructType(resource), schema);
  }

  private void walk(JavaType type, ObjectNode schema) {
    if (type.isContainerType() && !type.isMapLikeType()) {
      if (schema.get("items") instanceof ObjectNode items) {
        walkValue(type.getContentType(), items);
      }
      return;
    }
    if (type.isMapLikeType()) {
      if (schema.get("additionalProperties") instanceof ObjectNode values) {
        walkValue(type.getContentType(), values);
      }
      return;
    }
    if (KnownSchemas.apply(type.getRawClass(), schema)) {
      return;
    }
    if (!type.getRawClass().getName().startsWith(OWN_PACKAGE) || !(schema.get("properties") instanceof ObjectNode props)) {
      return;
    }
    Map<String, BeanPropertyDefinition> byName = new HashMap<>();
    for (BeanPropertyDefinition def : mapper.getSerializationConfig().introspect(type).findProperties()) {
      byName.put(def.getName(), def);
    }
    for (var entry : props.properties()) {
      BeanPropertyDefinition def = byName.get(entry.getKey());
      if (def == null || !(entry.getValue() instanceof ObjectNode child)) {
        continue;
      }
      AnnotatedMember member = def.getPrimaryMember();
      String doc = member == null ? null
          : index.getProperty(member.getDeclaringClass().getName() + "#" + def.getName());
      JavaType childType = def.getPrimaryType();
      if (doc == null) {
        doc = index.getProperty(childType.getRawClass().getName());
      }
      describeIfMissing(child, doc);
      addIntegerFormat(childType, child);
      walk(childType, child);
      applyPatches(def, childType, child);
    }
  }

  private void walkValue(JavaType type, ObjectNode schema) {
    if (type == null) {
      return;
    }
    walk(type, schema);
  }

  private void applyPatches(BeanPropertyDefinition def, JavaType type, ObjectNode schema) {
    SchemaPatch onType = type.getRawClass().getAnnotation(SchemaPatch.class);
    if (onType != null) {
      merge(schema, parse(onType.value(), type.getRawClass().getName()));
    }
    for (AnnotatedMember member : new AnnotatedMember[] {def.getField(), def.getGetter(), def.getConstructorParameter()}) {
      if (member != null && member.getAnnotation(SchemaPatch.class) != null) {
        merge(schema, parse(member.getAnnotation(SchemaPatch.class).value(), member.getFullName()));
        return;
      }
    }
  }

  private ObjectNode parse(String json, String where) {
    try {
      return (ObjectNode) mapper.readTree(json);
    } catch (JsonProcessingException | ClassCastException e) {
      throw new IllegalArgumentException("@SchemaPatch on " + where + " is not a JSON object: " + json, e);
    }
  }

  static void merge(ObjectNode target, ObjectNode patch) {
    for (var entry : patch.properties()) {
      if (entry.getValue() instanceof ObjectNode value && target.get(entry.getKey()) instanceof ObjectNode existing) {
        merge(existing, value);
      } else {
        target.set(entry.getKey(), entry.getValue().deepCopy());
      }
    }
  }

  private static void addIntegerFormat(JavaType type, ObjectNode schema) {
    if (!"integer".equals(schema.path("type").asText()) || schema.has("format")) {
      return;
    }
    Class<?> raw = type.getRawClass();
    if (raw == Integer.class || raw == int.class) {
      schema.put("format", "int32");
    } else if (raw == Long.class || raw == long.class) {
      schema.put("format", "int64");
    }
  }

  private static void describeIfMissing(ObjectNode schema, String doc) {
    JsonNode existing = schema.get("description");
    if (doc != null && !doc.isBlank() && (existing == null || existing.asText().isBlank())) {
      // Put the description first so that the YAML reads like the upstream CRDs.
      ObjectNode copy = schema.deepCopy();
      schema.removeAll();
      schema.put("description", doc);
      schema.setAll(copy);
    }
  }
}
