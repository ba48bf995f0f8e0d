package dev.modelplane.operator.common;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;

/** The spelling an API enum constant has in YAML (its {@code @JsonProperty}), as flags and labels need it. */
public final class EnumValues {
  private EnumValues() {
  }

  /** The constant's {@code @JsonProperty} value, else its lower-case name; null for null. */
  public static String of(Enum<?> value) {
    if (value == null) {
      return null;
    }
    try {
      JsonProperty property = value.getDeclaringClass().getField(value.name()).getAnnotation(JsonProperty.class);
      return property != null ? property.value() : value.name().toLowerCase(Locale.ROOT);
    } catch (NoSuchFieldException e) {
      return value.name().toLowerCase(Locale.ROOT);
    }
  }
}
