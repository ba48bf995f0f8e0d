package dev.modelplane.router.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.common.text.GoDuration;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;

/**
 * Reads the config's Kubernetes resource quantities ({@code 1Gi}, {@code 500M}, {@code 100}) with fabric8's
 * {@link Quantity}, and its Go durations ({@code 1m30s}) with {@link GoDuration}.
 */
public final class Quantities {
  private Quantities() {
  }

  /** A quantity as a whole number (rounded up like {@code Quantity.Value()}); 0 for null. */
  public static long quantity(JsonNode node) {
    if (node == null || node.isNull()) {
      return 0;
    }
    if (node.isNumber()) {
      return node.longValue();
    }
    return quantity(node.asText());
  }

  /** A quantity as a whole number (rounded up like {@code Quantity.Value()}); 0 for null or blank. */
  public static long quantity(String s) {
    if (s == null || s.isBlank()) {
      return 0;
    }
    try {
      Quantity q = Quantity.parse(s.strip());
      if (q.getAmount().chars().noneMatch(Character::isDigit)) {
        throw new IllegalArgumentException("no number");
      }
      String format = q.getFormat() == null ? "" : q.getFormat();
      // fabric8 raises 10 to a decimal exponent digit by digit: 1e99999999 would take minutes. Scale instead.
      boolean exponent = format.length() > 1 && (format.charAt(0) == 'e' || format.charAt(0) == 'E'); // not "E"xa
      BigDecimal value = exponent
          ? new BigDecimal(q.getAmount()).scaleByPowerOfTen(Integer.parseInt(format.substring(1)))
          : q.getNumericalAmount();
      return ceilingToLong(value);
    } catch (RuntimeException e) { // fabric8 throws NumberFormatException, IllegalArgumentException, ArithmeticException
      throw new IllegalArgumentException("invalid quantity \"" + s + "\": use a Kubernetes quantity such as 512, "
          + "32Mi, 1Gi or 500M" + (e instanceof ArithmeticException ? " (this one is out of range)" : ""));
    }
  }

  /** {@code value} rounded up to a long, without ever expanding a huge or tiny power of ten into its digits. */
  private static long ceilingToLong(BigDecimal value) {
    if (value.signum() == 0) {
      return 0;
    }
    if (value.precision() - value.scale() > 19) {
      throw new ArithmeticException("out of range");
    }
    if (value.scale() - value.precision() > 19) {
      return value.signum() > 0 ? 1 : 0; // 0 < |value| < 10^-19
    }
    return value.setScale(0, RoundingMode.CEILING).longValueExact();
  }

  /** A Go duration of the config field {@code field}; null or blank is zero; negative durations are refused. */
  public static Duration duration(String s, String field) {
    if (s == null || s.isBlank()) {
      return Duration.ZERO;
    }
    Duration d;
    try {
      d = GoDuration.parse(s);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + ": " + e.getMessage(), e);
    }
    if (d.isNegative()) {
      throw new IllegalArgumentException(field + ": duration \"" + s + "\" must not be negative");
    }
    return d;
  }
}
