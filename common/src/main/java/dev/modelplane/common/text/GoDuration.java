package dev.modelplane.common.text;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Duration;
import picocli.CommandLine;

/**
 * Durations in Go's syntax, the one GIE, llm-d and Kubernetes tools take on their command lines and in their configs:
 * {@link #parse} reads what Go's {@code time.ParseDuration} reads, {@link #format} writes what Go's
 * {@code Duration.String} writes.
 *
 * <p>A duration is an optional sign and one or more decimal numbers, each with an optional fraction and a unit:
 * {@code 300ms}, {@code -1.5h}, {@code 2h45m}. Units are {@code ns}, {@code us} (or {@code µs}, {@code μs}),
 * {@code ms}, {@code s}, {@code m} and {@code h}. A bare {@code 0} is the only number allowed without a unit.
 * Fractions of a nanosecond are dropped, as Go drops them. Surrounding white space is ignored.
 */
public final class GoDuration {
  private static final String EXAMPLES = "300ms, 1.5s, 2m30s or 1h";
  /** 2^63 as an unsigned long: the magnitude of the most negative duration. */
  private static final long LIMIT = Long.MIN_VALUE;
  private static final long LIMIT_DIV_10 = Long.divideUnsigned(LIMIT, 10);
  private static final long NANOS_PER_SECOND = 1_000_000_000L;

  private GoDuration() {
  }

  /**
   * Parses {@code text}.
   *
   * @throws IllegalArgumentException naming the text and showing an example when it is not a Go duration
   */
  public static Duration parse(String text) {
    if (text == null) {
      throw new IllegalArgumentException("missing duration: give one such as " + EXAMPLES);
    }
    String s = text.strip();
    boolean negative = false;
    if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
      negative = s.charAt(0) == '-';
      s = s.substring(1);
    }
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.isEmpty()) {
      throw invalid(text, null);
    }
    // Go's algorithm, with unsigned 64-bit sums (a negative duration may reach 2^63 ns).
    long total = 0;
    int[] at = {0};
    while (at[0] < s.length()) {
      long nanos = component(text, s, at);
      if (Long.compareUnsigned(nanos, LIMIT - total) > 0) {
        throw outOfRange(text);
      }
      total += nanos;
    }
    if (negative) {
      return Duration.ofNanos(-total);
    }
    if (total < 0) {
      throw outOfRange(text);
    }
    return Duration.ofNanos(total);
  }

  /** Reads one {@code number unit} part of {@code s} from {@code at[0]} on; returns its nanoseconds (unsigned). */
  private static long component(String text, String s, int[] at) {
    int i = at[0];
    long whole = 0;
    for (; i < s.length() && isDigit(s.charAt(i)); i++) {
      if (Long.compareUnsigned(whole, LIMIT_DIV_10) > 0) {
        throw outOfRange(text);
      }
      whole = whole * 10 + (s.charAt(i) - '0');
      if (Long.compareUnsigned(whole, LIMIT) > 0) {
        throw outOfRange(text);
      }
    }
    boolean hasWhole = i > at[0];
    long fraction = 0;
    double scale = 1;
    boolean hasFraction = false;
    if (i < s.length() && s.charAt(i) == '.') {
      boolean overflow = false;
      for (i++; i < s.length() && isDigit(s.charAt(i)); i++) {
        hasFraction = true;
        long next = fraction * 10 + (s.charAt(i) - '0');
        if (overflow || fraction > Long.MAX_VALUE / 10 || Long.compareUnsigned(next, LIMIT) > 0) {
          overflow = true; // later digits cannot change a nanosecond count
          continue;
        }
        fraction = next;
        scale *= 10;
      }
    }
    if (!hasWhole && !hasFraction) {
      throw invalid(text, null);
    }
    int unitStart = i;
    while (i < s.length() && s.charAt(i) != '.' && !isDigit(s.charAt(i))) {
      i++;
    }
    if (i == unitStart) {
      throw invalid(text, "missing unit");
    }
    long unit = unitNanos(s.substring(unitStart, i), text);
    at[0] = i;
    if (Long.compareUnsigned(whole, Long.divideUnsigned(LIMIT, unit)) > 0) {
      throw outOfRange(text);
    }
    long nanos = whole * unit;
    if (fraction != 0) {
      double unsignedFraction = fraction >= 0 ? fraction : (double) (fraction >>> 1) * 2;
      nanos += (long) (unsignedFraction * ((double) unit / scale));
      if (Long.compareUnsigned(nanos, LIMIT) > 0) {
        throw outOfRange(text);
      }
    }
    return nanos;
  }

  /**
   * Writes {@code d} as Go's {@code Duration.String} does: {@code 0s}, {@code 1.5µs}, {@code 12ms}, {@code 1.5s},
   * {@code 1m30s}, {@code 2h0m0s}; whole hours, minutes and seconds above a second, one unit below.
   */
  public static String format(Duration d) {
    if (d.isZero()) {
      return "0s";
    }
    StringBuilder out = new StringBuilder(24);
    if (d.isNegative()) {
      out.append('-');
    }
    BigInteger nanos = BigInteger.valueOf(d.getSeconds()).multiply(BigInteger.valueOf(NANOS_PER_SECOND))
        .add(BigInteger.valueOf(d.getNano())).abs();
    if (nanos.compareTo(BigInteger.valueOf(NANOS_PER_SECOND)) < 0) {
      long n = nanos.longValueExact();
      if (n < 1_000) {
        return out.append(n).append("ns").toString();
      }
      return n < 1_000_000 ? appendDecimal(out, n, 3).append("µs").toString()
          : appendDecimal(out, n, 6).append("ms").toString();
    }
    BigInteger[] secondsAndNanos = nanos.divideAndRemainder(BigInteger.valueOf(NANOS_PER_SECOND));
    BigInteger seconds = secondsAndNanos[0];
    long hours = seconds.divide(BigInteger.valueOf(3600)).longValueExact();
    long minutes = seconds.mod(BigInteger.valueOf(3600)).longValueExact() / 60;
    long secs = seconds.mod(BigInteger.valueOf(60)).longValueExact();
    if (hours > 0) {
      out.append(hours).append('h');
    }
    if (hours > 0 || minutes > 0) {
      out.append(minutes).append('m');
    }
    return appendDecimal(out, secs * NANOS_PER_SECOND + secondsAndNanos[1].longValueExact(), 9).append('s')
        .toString();
  }

  /** Appends {@code value / 10^scale} without trailing zeros (and without a point when whole). */
  private static StringBuilder appendDecimal(StringBuilder out, long value, int scale) {
    return out.append(BigDecimal.valueOf(value, scale).stripTrailingZeros().toPlainString());
  }

  private static long unitNanos(String unit, String text) {
    return switch (unit) {
      case "ns" -> 1L;
      case "us", "µs", "μs" -> 1_000L;
      case "ms" -> 1_000_000L;
      case "s" -> NANOS_PER_SECOND;
      case "m" -> 60 * NANOS_PER_SECOND;
      case "h" -> 3600 * NANOS_PER_SECOND;
      default -> throw invalid(text, "unknown unit \"" + unit + "\" (units: ns, us, ms, s, m, h)");
    };
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private static IllegalArgumentException outOfRange(String text) {
    return invalid(text, "out of range (at most " + format(Duration.ofNanos(Long.MAX_VALUE)) + ")");
  }

  private static IllegalArgumentException invalid(String text, String why) {
    return new IllegalArgumentException("invalid duration \"" + text + "\"" + (why == null ? "" : ": " + why)
        + "; use a Go duration such as " + EXAMPLES);
  }

  /** picocli converter for options that take a Go duration of either sign. */
  public static final class Converter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }

  /** picocli converter for options whose duration must not be negative. */
  public static final class NonNegativeConverter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      return nonNegative(new Converter().convert(value), value);
    }
  }

  /**
   * As {@link NonNegativeConverter}, also reading ISO-8601 ({@code PT10M}): the form the command line's
   * {@code --timeout} options took before they took Go durations like every other duration option. The ISO-8601
   * form is deprecated; it is read for one release after the switch, then this converter goes.
   */
  public static final class NonNegativeOrIso8601Converter implements CommandLine.ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      String s = value == null ? "" : value.strip();
      String unsigned = s.startsWith("-") || s.startsWith("+") ? s.substring(1) : s;
      if (unsigned.startsWith("P") || unsigned.startsWith("p")) {
        try {
          return nonNegative(Duration.parse(s), value);
        } catch (java.time.format.DateTimeParseException e) {
          // Neither form: the Go duration's message below shows what to write.
        }
      }
      return new NonNegativeConverter().convert(value);
    }
  }

  private static Duration nonNegative(Duration d, String value) {
    if (d.isNegative()) {
      throw new CommandLine.TypeConversionException("duration \"" + value + "\" must not be negative");
    }
    return d;
  }
}
