package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.api.ome.v1beta1.ModelFrameworkSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * Reads a diffusers pipeline ({@code model_index.json}) as OME does: model type {@code diffusers}, the pipeline
 * class as architecture, format and framework {@code diffusers} with the pipeline's diffusers version, the context
 * length of {@code text_encoder/config.json}, and as parameter count the sum of the text encoder, transformer (or
 * UNet) and VAE weights plus any other component's that has weights.
 */
final class ModelMetadataPipelineReader {
  private static final List<String> CLASS_KEYS = List.of("_class_name", "class_name", "className");
  private static final List<String> VERSION_KEYS = List.of("_diffusers_version", "diffusers_version");
  /** Components without weights of their own. */
  private static final Set<String> NO_WEIGHTS = Set.of("scheduler", "tokenizer", "feature_extractor");

  private ModelMetadataPipelineReader() {
  }

  static ModelMetadataResult read(Path indexFile) throws IOException {
    ObjectNode index = ModelConfigJson.read(indexFile);
    Path dir = indexFile.getParent();
    String className = firstText(index, CLASS_KEYS);
    String version = firstText(index, VERSION_KEYS);
    List<String> components = new ArrayList<>();
    for (Map.Entry<String, JsonNode> entry : index.properties()) {
      if (!entry.getKey().startsWith("_") && isComponent(entry.getValue())) {
        components.add(entry.getKey());
      }
    }
    if (className.isEmpty() && components.isEmpty()) {
      throw new ModelConfigException(indexFile + ": has no diffusion pipeline class or components");
    }
    List<String> notes = new ArrayList<>();
    Optional<ParameterCount> count = parameterCount(dir, components, notes);
    OptionalLong context = textEncoderContextLength(dir, notes);
    ModelMetadata metadata = new ModelMetadata(
        "diffusers",
        ModelMetadataReader.emptyToNull(className),
        context.isPresent() && context.getAsLong() <= Integer.MAX_VALUE ? (int) context.getAsLong() : null,
        new ModelFrameworkSpec("diffusers", ModelMetadataReader.emptyToNull(version), null, null),
        new ModelFormat("diffusers", ModelMetadataReader.emptyToNull(version), null, null),
        null,
        ModelMetadataCapabilities.ofPipeline(className),
        count.map(ParameterCount::formatted).orElse(null),
        count.orElse(null),
        ModelMetadataReader.summary("diffusers", className, context, count, true, false, "", "", Optional.empty()));
    return new ModelMetadataResult.Found(metadata, indexFile, notes);
  }

  /** A component entry is {@code ["library", "Class"]} or an object naming a class or library. */
  private static boolean isComponent(JsonNode value) {
    if (value.isArray()) {
      return !value.isEmpty();
    }
    return value.isObject() && !(firstText(value, List.of("_class_name", "class_name", "className", "type"))
        .isEmpty() && firstText(value, List.of("_library", "library")).isEmpty());
  }

  private static Optional<ParameterCount> parameterCount(Path dir, List<String> components, List<String> notes) {
    boolean hasTransformer = components.contains("transformer") && Files.isDirectory(dir.resolve("transformer"));
    long total = 0;
    for (String component : components) {
      String key = component.toLowerCase(Locale.ROOT);
      if (NO_WEIGHTS.contains(key) || key.startsWith("tokenizer") || key.equals("unet") && hasTransformer) {
        continue;
      }
      boolean required = key.equals("text_encoder") || key.equals("transformer") || key.equals("unet")
          || key.equals("vae");
      try {
        SafetensorsWeights weights = SafetensorsWeights.scan(dir.resolve(component));
        if (weights instanceof SafetensorsWeights.Counted counted) {
          total = Math.addExact(total, counted.parameterCount());
        } else if (required) {
          notes.add("pipeline component " + component + " has no complete safetensors weights; size not counted");
          return Optional.empty();
        }
      } catch (IOException | ArithmeticException e) {
        notes.add("safetensors weights not counted: " + e.getMessage());
        return Optional.empty();
      }
    }
    return total > 0 ? Optional.of(new ParameterCount(total, ParameterCount.Source.SAFETENSORS_HEADERS))
        : Optional.empty();
  }

  private static OptionalLong textEncoderContextLength(Path dir, List<String> notes) {
    Path file = dir.resolve("text_encoder").resolve(ModelMetadataReader.CONFIG);
    if (!Files.isRegularFile(file)) {
      return OptionalLong.empty();
    }
    try {
      JsonNode value = ModelConfigJson.read(file).path("max_position_embeddings");
      return value.canConvertToExactIntegral() && value.asLong() > 0 ? OptionalLong.of(value.asLong())
          : OptionalLong.empty();
    } catch (ModelConfigException e) {
      notes.add(e.getMessage());
      return OptionalLong.empty();
    }
  }

  private static String firstText(JsonNode node, List<String> keys) {
    for (String key : keys) {
      if (node.path(key).isTextual() && !node.path(key).asText().isEmpty()) {
        return node.path(key).asText();
      }
    }
    return "";
  }
}
