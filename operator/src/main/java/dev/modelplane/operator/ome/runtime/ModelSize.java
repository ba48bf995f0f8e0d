package dev.modelplane.operator.ome.runtime;

import java.util.Optional;

/** Parameter counts written as OME writes them: {@code 560M}, {@code 7B}, {@code 7.6B}, {@code 1.5T} or a number. */
final class ModelSize {
  private ModelSize() {
  }

  /** The number of parameters {@code text} stands for, or empty when it is not a size. */
  static Optional<Double> parse(String text) {
    if (text == null || text.isBlank()) {
      return Optional.empty();
    }
    String t = text.strip();
    double multiplier = 1;
    switch (t.charAt(t.length() - 1)) {
      case 'T' -> multiplier = 1e12;
      case 'B' -> multiplier = 1e9;
      case 'M' -> multiplier = 1e6;
      default -> {
      }
    }
    String number = multiplier == 1 ? t : t.substring(0, t.length() - 1);
    try {
      double value = Double.parseDouble(number);
      return value < 0 || Double.isNaN(value) || Double.isInfinite(value) ? Optional.empty()
          : Optional.of(value * multiplier);
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }
}
