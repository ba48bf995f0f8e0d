package dev.modelplane.operator.modelsource;

import java.nio.file.Path;
import java.util.List;

/** The outcome of reading a model directory's configuration: metadata, or why there is none. */
public sealed interface ModelMetadataResult {
  /**
   * Metadata was read.
   *
   * @param metadata what the files say
   * @param configFile the {@code config.json} or {@code model_index.json} it was read from
   * @param notes what could not be read and was left out or estimated, e.g. missing shards; for logs and events
   */
  record Found(ModelMetadata metadata, Path configFile, List<String> notes) implements ModelMetadataResult {
    public Found {
      notes = List.copyOf(notes);
    }
  }

  /**
   * The directory has no configuration to read (or does not exist): nothing to fill in, not an error.
   *
   * @param reason says what was looked for and where
   */
  record NoConfig(String reason) implements ModelMetadataResult {
  }
}
