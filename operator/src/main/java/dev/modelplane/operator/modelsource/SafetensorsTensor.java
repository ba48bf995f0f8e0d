package dev.modelplane.operator.modelsource;

import java.util.List;
import java.util.Objects;

/**
 * One tensor entry of a safetensors header.
 *
 * @param name tensor name, e.g. {@code model.layers.0.self_attn.q_proj.weight}
 * @param dtype element type as written, e.g. {@code BF16}, {@code F8_E4M3}, {@code I32}
 * @param shape dimensions, each zero or more; empty for a scalar
 * @param dataStart first byte of the tensor in the data section (after the header)
 * @param dataEnd byte after the tensor's last byte in the data section
 * @param elementCount product of the dimensions (1 for a scalar), checked for overflow when read
 */
public record SafetensorsTensor(
    String name, String dtype, List<Long> shape, long dataStart, long dataEnd, long elementCount) {
  public SafetensorsTensor {
    Objects.requireNonNull(name);
    Objects.requireNonNull(dtype);
    shape = List.copyOf(shape);
  }
}
