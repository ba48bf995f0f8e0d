package dev.modelplane.operator.modelsource;

/**
 * A model's number of parameters and how it was found out.
 *
 * @param value the number of parameters
 * @param source whether it was counted or estimated, and from what
 */
public record ParameterCount(long value, Source source) {
  /** Where a parameter count comes from, most exact first. */
  public enum Source {
    /** Summed from the shapes in the safetensors headers: exact. */
    SAFETENSORS_HEADERS,
    /**
     * {@code metadata.total_size} of a sharded checkpoint's index divided by the width of the model's
     * {@code torch_dtype}: close for unquantized weights, used when shards are missing.
     */
    INDEX_TOTAL_SIZE,
    /** OME's rough formula over the dimensions in {@code config.json}. */
    CONFIG_ESTIMATE
  }

  public ParameterCount {
    if (value < 0) {
      throw new IllegalArgumentException("a parameter count cannot be negative: " + value);
    }
    java.util.Objects.requireNonNull(source);
  }

  /** The count as OME writes {@code modelParameterSize}, e.g. {@code 7.62B}. */
  public String formatted() {
    return ParameterCountFormat.format(value);
  }
}
