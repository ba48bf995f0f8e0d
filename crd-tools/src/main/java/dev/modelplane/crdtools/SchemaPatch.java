package dev.modelplane.crdtools;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A JSON object deep-merged into the generated schema of the annotated field (or, on a type, into the schema of
 * every field of that type). For what fabric8's annotations cannot say: list types and map keys, constraints on
 * map values or list items, formats and defaults of structured values. Example:
 * {@code @SchemaPatch("{\"x-kubernetes-list-type\":\"map\",\"x-kubernetes-list-map-keys\":[\"type\"]}")}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.METHOD, ElementType.TYPE})
public @interface SchemaPatch {
  /** The JSON object to merge; objects merge key by key, any other value replaces what was there. */
  String value();
}
