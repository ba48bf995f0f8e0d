package dev.modelplane.router.plugin;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses Kubernetes resource quantities ({@code 1Gi}, {@code 500M}, {@code 100}) and Go durations ({@code 1m30s}). */
public final class Quantities {
  private static final Pattern QUANTITY = Pattern.compile("^([+-]?[0-9.]+(?:[eE][+-]?[0-9]+)?)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)?$");
  private static final Pattern DURATION_PART = Pattern.compile("([0-9]*\\.?[0-9]+)(ns|us|µs|ms|s|m|h)");

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

  /** A Go duration string ({@code 300ms}, {@code 1m30s}, {@code 0}); null or blank is zero. */
  public static Duration duration(String s) {
    if (s == null || s.isBlank() || s.trim().equals("0")) {
      return Duration.ZERO;
    }
    String text = s.trim();
    Matcher m = DURATION_PART.matcher(text);
    int pos = 0;
    double nanos = 0;
    while (m.find()) {
      if (m.start() != pos) {
        throw new IllegalArgumentException("invalid duration: " + s);
      }
      double v = Double.parseDouble(m.group(1));
      nanos += v * switch (m.group(2)) {
        case "ns" -> 1;
        case "us", "µs" -> 1e3;
        case "ms" -> 1e6;
        case "s" -> 1e9;
        case "m" -> 60e9;
        default -> 3600e9;
      };
      pos = m.end();
    }
    if (pos != text.length() || pos == 0) {
      throw new IllegalArgumentException("invalid duration: " + s);
    }
    return Duration.ofNanos(Math.round(nanos));
  }
}
