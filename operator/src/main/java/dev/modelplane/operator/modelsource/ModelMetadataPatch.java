package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.api.ome.v1beta1.ModelFrameworkSpec;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The spec fields a model's metadata fills in: only those that are empty (null, blank, or an empty list or
 * object), so a value someone wrote is never replaced. OME's agent overwrites {@code modelConfiguration} on every
 * parse; here it too is filled once.
 */
public final class ModelMetadataPatch {
  /** The annotation with which a model opts out of having its spec filled from its files. */
  public static final String SKIP_CONFIG_PARSING = "ome.oracle.com/skip-config-parsing";

  private ModelMetadataPatch() {
  }

  /** Whether the annotations opt out: {@link #SKIP_CONFIG_PARSING} is {@code true}, in any letter case, as in OME. */
  public static boolean skipsConfigParsing(Map<String, String> annotations) {
    return annotations != null && "true".equals(
        annotations.getOrDefault(SKIP_CONFIG_PARSING, "").toLowerCase(Locale.ROOT));
  }

  /**
   * A JSON merge patch for {@code spec} that sets the empty fields of {@code spec} to what {@code metadata} says;
   * empty when there is nothing to fill. A {@code modelFormat} or {@code modelFramework} that is set but has no
   * version gets the version only when its name is the one found (ignoring case).
   */
  public static ObjectNode fillEmpty(BaseModelSpec spec, ModelMetadata metadata) {
    ObjectNode patch = JsonNodeFactory.instance.objectNode();
    putText(patch, "modelType", spec.modelType(), metadata.modelType());
    putText(patch, "modelArchitecture", spec.modelArchitecture(), metadata.modelArchitecture());
    putText(patch, "quantization", spec.quantization(), metadata.quantization());
    putText(patch, "modelParameterSize", spec.modelParameterSize(), metadata.modelParameterSize());
    if (spec.maxTokens() == null && metadata.maxTokens() != null && metadata.maxTokens() > 0) {
      patch.put("maxTokens", metadata.maxTokens());
    }
    if (isEmpty(spec.modelCapabilities()) && !isEmpty(metadata.modelCapabilities())) {
      metadata.modelCapabilities().forEach(patch.putArray("modelCapabilities")::add);
    }
    if (isEmpty(spec.modelConfiguration()) && !isEmpty(metadata.modelConfiguration())) {
      patch.set("modelConfiguration", metadata.modelConfiguration().deepCopy());
    }
    ModelFormat format = spec.modelFormat();
    ModelFormat foundFormat = metadata.modelFormat();
    if (foundFormat != null) {
      named(patch, "modelFormat", format == null ? null : format.name(), format == null ? null : format.version(),
          foundFormat.name(), foundFormat.version());
    }
    ModelFrameworkSpec framework = spec.modelFramework();
    ModelFrameworkSpec foundFramework = metadata.modelFramework();
    if (foundFramework != null) {
      named(patch, "modelFramework", framework == null ? null : framework.name(),
          framework == null ? null : framework.version(), foundFramework.name(), foundFramework.version());
    }
    return patch;
  }

  /** A {@code {name, version}} object: whole when absent, or its version when the names agree. */
  private static void named(ObjectNode patch, String field, String name, String version, String foundName,
      String foundVersion) {
    if (isBlank(foundName)) {
      return;
    }
    if (isBlank(name)) {
      ObjectNode value = patch.putObject(field).put("name", foundName);
      if (!isBlank(foundVersion)) {
        value.put("version", foundVersion);
      }
    } else if (isBlank(version) && !isBlank(foundVersion) && name.equalsIgnoreCase(foundName)) {
      patch.putObject(field).put("version", foundVersion);
    }
  }

  private static void putText(ObjectNode patch, String field, String current, String found) {
    if (isBlank(current) && !isBlank(found)) {
      patch.put(field, found);
    }
  }

  private static boolean isBlank(String value) {
    return value == null || value.isBlank();
  }

  private static boolean isEmpty(List<String> value) {
    return value == null || value.isEmpty();
  }

  private static boolean isEmpty(JsonNode value) {
    return value == null || value.isNull() || value.isMissingNode() || value.isContainerNode() && value.isEmpty();
  }
}
