package dev.modelplane.operator.modelsource;

import java.io.IOException;

/**
 * A safetensors file or index that cannot be read as one: a header length out of bounds, a header that is not the
 * expected JSON, a negative or overflowing shape, a missing shard. The message names the file and the tensor.
 */
public final class SafetensorsFormatException extends IOException {
  SafetensorsFormatException(String message) {
    super(message);
  }

  SafetensorsFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
