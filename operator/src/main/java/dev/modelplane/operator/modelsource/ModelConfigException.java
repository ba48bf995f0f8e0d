package dev.modelplane.operator.modelsource;

import java.io.IOException;

/** A model configuration file ({@code config.json}, {@code model_index.json}) that cannot be read; names the file. */
public final class ModelConfigException extends IOException {
  ModelConfigException(String message) {
    super(message);
  }

  ModelConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
