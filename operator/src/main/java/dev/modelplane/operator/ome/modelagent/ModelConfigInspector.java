package dev.modelplane.operator.ome.modelagent;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.operator.modelsource.GgufReader;
import dev.modelplane.operator.modelsource.ModelMetadata;
import dev.modelplane.operator.modelsource.ModelMetadataReader;
import dev.modelplane.operator.modelsource.ModelMetadataResult;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads what a model directory says about the model, as the {@code config} of a node report: {@link ModelMetadata}
 * from {@code config.json}/{@code model_index.json} and safetensors headers, else, for a directory of {@code .gguf}
 * files, the GGUF header of the first one (architecture, file type as quantization, context length as max tokens,
 * format {@code gguf}).
 */
final class ModelConfigInspector {
  private static final ObjectMapper JSON = JsonMapper.builder()
      .serializationInclusion(JsonInclude.Include.NON_NULL).build();
  private static final int MAX_DEPTH = 4;

  private ModelConfigInspector() {
  }

  /**
   * What was read.
   *
   * @param config the metadata as JSON, or null when the directory says nothing readable
   * @param note what was read or why nothing was, for the report's message and the log
   */
  record Inspection(JsonNode config, String note) {
  }

  static Inspection inspect(Path dir) throws IOException {
    ModelMetadataResult result = ModelMetadataReader.read(dir);
    if (result instanceof ModelMetadataResult.Found found) {
      return new Inspection(JSON.valueToTree(found.metadata()), "metadata read from "
          + dir.relativize(found.configFile()));
    }
    Optional<Path> gguf = firstGguf(dir);
    if (gguf.isEmpty()) {
      return new Inspection(null, ((ModelMetadataResult.NoConfig) result).reason() + ", and no .gguf file");
    }
    GgufMetadata header;
    try (InputStream in = Files.newInputStream(gguf.get())) {
      header = GgufReader.read(in);
    }
    return new Inspection(JSON.valueToTree(fromGguf(header)), "metadata read from the GGUF header of "
        + dir.relativize(gguf.get()));
  }

  /** The metadata a GGUF header gives. */
  static ModelMetadata fromGguf(GgufMetadata header) {
    return new ModelMetadata(header.architecture(), header.architecture(),
        header.contextLength() == null ? null : (int) Math.min(Integer.MAX_VALUE, header.contextLength()), null,
        new ModelFormat("gguf", header.fileVersion() == null ? null : header.fileVersion().toString(), null, null),
        header.quantization(), List.of("TEXT_TO_TEXT"), null, null, null);
  }

  private static Optional<Path> firstGguf(Path dir) throws IOException {
    if (!Files.isDirectory(dir)) {
      return Optional.empty();
    }
    try (Stream<Path> files = Files.walk(dir, MAX_DEPTH)) {
      return files.filter(p -> p.getFileName().toString().toLowerCase(java.util.Locale.ROOT).endsWith(".gguf"))
          .filter(Files::isRegularFile).sorted().findFirst();
    }
  }
}
