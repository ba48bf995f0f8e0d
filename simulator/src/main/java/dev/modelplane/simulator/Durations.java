package dev.modelplane.simulator;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Durations in Go's {@code time.ParseDuration} syntax ({@code 100ms}, {@code 1.5s}, {@code 750us}, {@code 1m30s}),
 * the format llm-d-inference-sim takes, so one command line works for both. A bare integer is read as milliseconds,
 * the peer's deprecated integer form.
 */
public final class Durations {
  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|μs|ms|s|m|h)");

  private Durations() {
  }

  /** Parses {@code text}; throws {@link IllegalArgumentException} with the offending text when it is not a duration. */
  public static Duration parse(String text) {
    String s = text == null ? "" : text.trim();
    if (s.isEmpty()) {
      throw new IllegalArgumentException("empty duration");
    }
    if (s.matches("\\d+")) {
      return Duration.ofMillis(Long.parseLong(s));
    }
    boolean negative = s.startsWith("-");
    if (negative || s.startsWith("+")) {
      s = s.substring(1);
    }
    Matcher m = PART.matcher(s);
    int at = 0;
    double nanos = 0;
    while (at < s.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new IllegalArgumentException("invalid duration \"" + text + "\" (use e.g. 100ms, 1.5s, 750us, 2m)");
      }
      double value = Double.parseDouble(m.group(1));
      nanos += value * switch (m.group(2)) {
        case "ns" -> 1d;
        case "us", "µs", "μs" -> 1e3;
        case "ms" -> 1e6;
        case "s" -> 1e9;
        case "m" -> 60e9;
        default -> 3600e9;
      };
      at = m.end();
    }
    long n = Math.round(nanos);
    return Duration.ofNanos(negative ? -n : n);
  }

  /** Formats like Go's {@code Duration.String} for the common cases: {@code 0s}, {@code 250us}, {@code 12ms}, {@code 1.5s}. */
  public static String format(Duration d) {
    long n = d.toNanos();
    if (n == 0) {
      return "0s";
    }
    if (n % 1_000_000_000L == 0) {
      return n / 1_000_000_000L + "s";
    }
    if (n % 1_000_000L == 0) {
      return n / 1_000_000L + "ms";
    }
    if (n % 1_000L == 0) {
      return n / 1_000L + "us";
    }
    return n + "ns";
  }

  /** picocli converter for duration options. */
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
}
