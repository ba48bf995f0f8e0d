package dev.modelplane.operator.modelsource;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.api.ome.v1beta1.ModelFrameworkSpec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Reads a downloaded model directory the way OME's model agent does: a diffusers {@code model_index.json} if there
 * is one anywhere, else {@code config.json} at the root, under {@code safetensors/}, {@code pytorch_model/} or
 * {@code model/}, else the first found below (directories in name order, at most {@value #MAX_DEPTH} deep). The
 * parameter count comes from the safetensors headers next to the configuration, else from the index's
 * {@code total_size}, else from OME's estimate over the configuration's dimensions.
 */
public final class ModelMetadataReader {
  static final String CONFIG = "config.json";
  static final String MODEL_INDEX = "model_index.json";
  static final String SENTENCE_TRANSFORMERS = "config_sentence_transformers.json";
  static final int MAX_DEPTH = 8;
  private static final List<String> CONFIG_DIRECTORIES = List.of("safetensors", "pytorch_model", "model");

  private ModelMetadataReader() {
  }

  /**
   * Reads {@code modelDir}.
   *
   * @return the metadata, or {@link ModelMetadataResult.NoConfig} when there is no configuration file
   * @throws ModelConfigException when the configuration file is not valid JSON or not a JSON object
   * @throws IOException when the directory cannot be listed
   */
  public static ModelMetadataResult read(Path modelDir) throws IOException {
    if (!Files.isDirectory(modelDir)) {
      return new ModelMetadataResult.NoConfig("model directory " + modelDir + " does not exist");
    }
    Optional<Path> index = Files.isRegularFile(modelDir.resolve(MODEL_INDEX))
        ? Optional.of(modelDir.resolve(MODEL_INDEX)) : firstBelow(modelDir, MODEL_INDEX, 0);
    if (index.isPresent()) {
      return ModelMetadataPipelineReader.read(index.get());
    }
    Optional<Path> config = findConfig(modelDir);
    if (config.isEmpty()) {
      return new ModelMetadataResult.NoConfig("no " + MODEL_INDEX + " or " + CONFIG + " in " + modelDir);
    }
    return readConfig(config.get());
  }

  private static Optional<Path> findConfig(Path modelDir) throws IOException {
    if (Files.isRegularFile(modelDir.resolve(CONFIG))) {
      return Optional.of(modelDir.resolve(CONFIG));
    }
    for (String sub : CONFIG_DIRECTORIES) {
      if (Files.isRegularFile(modelDir.resolve(sub).resolve(CONFIG))) {
        return Optional.of(modelDir.resolve(sub).resolve(CONFIG));
      }
    }
    return firstBelow(modelDir, CONFIG, 0);
  }

  /** Depth-first in name order, files of a directory before its subdirectories; symbolic links are not followed. */
  static Optional<Path> firstBelow(Path dir, String name, int depth) throws IOException {
    if (depth > MAX_DEPTH) {
      return Optional.empty();
    }
    List<Path> entries;
    try (Stream<Path> list = Files.list(dir)) {
      entries = list.sorted().toList();
    }
    for (Path entry : entries) {
      if (entry.getFileName().toString().equals(name) && Files.isRegularFile(entry)) {
        return Optional.of(entry);
      }
    }
    for (Path entry : entries) {
      if (Files.isDirectory(entry, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
        Optional<Path> found = firstBelow(entry, name, depth + 1);
        if (found.isPresent()) {
          return found;
        }
      }
    }
    return Optional.empty();
  }

  private static ModelMetadataResult readConfig(Path configFile) throws IOException {
    ModelConfig config = new ModelConfig(ModelConfigJson.read(configFile));
    Path dir = configFile.getParent();
    List<String> notes = new ArrayList<>();
    if (config.modelType().isEmpty()) {
      notes.add(configFile + ": has no model_type");
    }
    boolean embedding = config.modelType().equals("bert") || sentenceTransformersSimilarity(dir, notes);
    Optional<ParameterCount> count = parameterCount(dir, config, notes);
    boolean safetensors = hasSafetensors(dir);
    OptionalLong context = config.contextLength();
    Integer maxTokens = context.isPresent() && context.getAsLong() <= Integer.MAX_VALUE
        ? (int) context.getAsLong() : null;
    String version = config.transformersVersion();
    ModelMetadata metadata = new ModelMetadata(
        emptyToNull(config.modelType()),
        emptyToNull(config.architecture()),
        maxTokens,
        new ModelFrameworkSpec("transformers", emptyToNull(version), null, null),
        safetensors ? new ModelFormat("safetensors", "1.0.0", null, null) : null,
        config.quantization().orElse(null),
        ModelMetadataCapabilities.ofModel(config.modelType(), config.architecture(), config.hasVision(), embedding),
        count.map(ParameterCount::formatted).orElse(null),
        count.orElse(null),
        summary(config.modelType(), config.architecture(), context, count, config.hasVision(), embedding, version,
            config.torchDtype(), config.bytesPerParameter()));
    return new ModelMetadataResult.Found(metadata, configFile, notes);
  }

  /** Exact from headers; else the index's byte total over the dtype width (unquantized only); else the estimate. */
  private static Optional<ParameterCount> parameterCount(Path dir, ModelConfig config, List<String> notes) {
    try {
      SafetensorsWeights weights = SafetensorsWeights.scan(dir);
      switch (weights) {
        case SafetensorsWeights.Counted counted when counted.parameterCount() > 0 -> {
          return Optional.of(new ParameterCount(counted.parameterCount(),
              ParameterCount.Source.SAFETENSORS_HEADERS));
        }
        case SafetensorsWeights.ShardsMissing missing -> {
          notes.add(missing.message());
          OptionalLong total = missing.contents().totalSize();
          Optional<Double> width = config.bytesPerParameter();
          if (total.isPresent() && width.isPresent() && config.quantizationMethod().isEmpty()) {
            return Optional.of(new ParameterCount((long) (total.getAsLong() / width.get()),
                ParameterCount.Source.INDEX_TOTAL_SIZE));
          }
        }
        default -> {
        }
      }
    } catch (IOException | ArithmeticException e) {
      notes.add("safetensors weights not counted: " + e.getMessage());
    }
    OptionalLong estimate = config.estimatedParameters();
    return estimate.isPresent() && estimate.getAsLong() > 0
        ? Optional.of(new ParameterCount(estimate.getAsLong(), ParameterCount.Source.CONFIG_ESTIMATE))
        : Optional.empty();
  }

  static boolean hasSafetensors(Path dir) throws IOException {
    if (Files.isRegularFile(dir.resolve(SafetensorsIndex.FILE_NAME))) {
      return true;
    }
    try (Stream<Path> list = Files.list(dir)) {
      return list.anyMatch(p -> p.getFileName().toString().endsWith(".safetensors"));
    }
  }

  /** A sentence-transformers configuration with a similarity function marks an embedding model. */
  private static boolean sentenceTransformersSimilarity(Path dir, List<String> notes) {
    Path file = dir.resolve(SENTENCE_TRANSFORMERS);
    if (!Files.isRegularFile(file)) {
      return false;
    }
    try {
      return !ModelConfigJson.read(file).path("similarity_fn_name").asText("").isEmpty();
    } catch (ModelConfigException e) {
      notes.add(e.getMessage());
      return false;
    }
  }

  /** OME's {@code modelConfiguration}: the same keys, for tools that read them. */
  static ObjectNode summary(String modelType, String architecture, OptionalLong context,
      Optional<ParameterCount> count, boolean vision, boolean embedding, String transformersVersion, String dtype,
      Optional<Double> bytesPerParameter) {
    ObjectNode node = JsonNodeFactory.instance.objectNode();
    node.put("model_type", modelType);
    node.put("architecture", architecture);
    node.put("context_length", context.orElse(0));
    node.put("parameter_count", ParameterCountFormat.format(count.map(ParameterCount::value).orElse(0L)));
    node.put("has_vision", vision);
    node.put("is_embedding", embedding);
    node.put("transformers_version", transformersVersion);
    node.put("torch_dtype", dtype);
    long params = count.map(ParameterCount::value).orElse(0L);
    node.put("model_size_bytes", (long) (params * bytesPerParameter.orElse(4.0)));
    return node;
  }

  static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }
}
