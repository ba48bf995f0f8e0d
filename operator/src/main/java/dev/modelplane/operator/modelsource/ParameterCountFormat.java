package dev.modelplane.operator.modelsource;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Writes a parameter count the way OME fills {@code modelParameterSize}, so that sizes compare equal with what OME
 * writes and with runtimes' {@code modelSizeRange}: below a thousand the plain number; otherwise the count in the
 * largest unit of T (10^12), B (10^9), M (10^6) or K (10^3) it reaches, as a whole number when it is one
 * ({@code 7B}, {@code 560M}), with one decimal when the value has at most two decimals ({@code 7.6B}, but also
 * {@code 1.5B} for exactly 1.54 billion), else with two ({@code 1.54B} for 1,543,714,304; {@code 7.62B}).
 *
 * <p>The tests are done in binary floating point and decimals are rounded from the exact binary value, half to
 * even, as OME's formatting does: 1,250 gives {@code 1.2K}, 1,050 gives {@code 1.1K}, 999,999 gives
 * {@code 1000.00K}.
 */
public final class ParameterCountFormat {
  private static final long[] UNITS = {1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L};
  private static final String[] SUFFIXES = {"T", "B", "M", "K"};

  private ParameterCountFormat() {
  }

  /**
   * The short form of {@code count}.
   *
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public static String format(long count) {
    if (count < 0) {
      throw new IllegalArgumentException("a parameter count cannot be negative: " + count);
    }
    for (int i = 0; i < UNITS.length; i++) {
      if (count >= UNITS[i]) {
        return shortForm((double) count / (double) UNITS[i]) + SUFFIXES[i];
      }
    }
    return Long.toString(count);
  }

  private static String shortForm(double value) {
    if (value == (double) (long) value) {
      return Long.toString((long) value);
    }
    double hundredths = value * 100;
    int decimals = hundredths == (double) (long) hundredths ? 1 : 2;
    return new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
  }
}
