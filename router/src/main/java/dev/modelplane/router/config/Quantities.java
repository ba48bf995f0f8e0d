package dev.modelplane.router.config;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.common.text.GoDuration;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses Kubernetes resource quantities ({@code 1Gi}, {@code 500M}, {@code 100}) and reads the config's Go durations
 * ({@code 1m30s}) with {@link GoDuration}.
 */
public final class Quantities {
  private static final Pattern QUANTITY = Pattern.compile("^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$");

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

  public static long quantity(String s) {
    if (s == null || s.isBlank()) {
      return 0;
    }
    Matcher m = QUANTITY.matcher(s.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("invalid quantity: " + s);
    }
    BigDecimal value = new BigDecimal(m.group(1));
    String suffix = m.group(2) == null ? "" : m.group(2);
    BigDecimal factor = switch (suffix) {
      case "Ki" -> BigDecimal.valueOf(1L << 10);
      case "Mi" -> BigDecimal.valueOf(1L << 20);
      case "Gi" -> BigDecimal.valueOf(1L << 30);
      case "Ti" -> BigDecimal.valueOf(1L << 40);
      case "Pi" -> BigDecimal.valueOf(1L << 50);
      case "Ei" -> BigDecimal.valueOf(1L << 60);
      case "n" -> new BigDecimal("1e-9");
      case "u" -> new BigDecimal("1e-6");
      case "m" -> new BigDecimal("1e-3");
      case "k" -> BigDecimal.valueOf(1_000L);
      case "M" -> BigDecimal.valueOf(1_000_000L);
      case "G" -> BigDecimal.valueOf(1_000_000_000L);
      case "T" -> BigDecimal.valueOf(1_000_000_000_000L);
      case "P" -> BigDecimal.valueOf(1_000_000_000_000_000L);
      case "E" -> new BigDecimal("1e18");
      default -> BigDecimal.ONE;
    };
    return value.multiply(factor).setScale(0, java.math.RoundingMode.CEILING).longValueExact();
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
