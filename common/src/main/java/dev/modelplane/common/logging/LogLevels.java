package dev.modelplane.common.logging;

import ch.qos.logback.classic.Level;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Log levels as given on a command line: a level for every logger, then per-logger levels, e.g.
 * {@code info,dev.modelplane.router=debug,io.fabric8=warn}. Levels are {@code trace}, {@code debug}, {@code info},
 * {@code warn}, {@code error} and {@code off}, in any case.
 *
 * @param root the level of every logger not named
 * @param loggers levels of named loggers (and their children), in the order given
 */
public record LogLevels(Level root, Map<String, Level> loggers) {
  /** {@code info} for every logger. */
  public static final LogLevels DEFAULT = new LogLevels(Level.INFO, Map.of());

  private static final Pattern LOGGER_NAME = Pattern.compile("[A-Za-z_$][\\w$.-]*");
  private static final String LEVELS = "trace, debug, info, warn, error or off";

  /** Keeps the given order. */
  public LogLevels {
    if (root == null) {
      throw new IllegalArgumentException("missing root level");
    }
    loggers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(loggers));
  }

  /**
   * Parses a level spec; a blank spec is {@link #DEFAULT}.
   *
   * @throws IllegalArgumentException naming the spec, the bad part and what would be right
   */
  public static LogLevels parse(String spec) {
    if (spec == null || spec.isBlank()) {
      return DEFAULT;
    }
    Level root = null;
    Map<String, Level> loggers = new LinkedHashMap<>();
    for (String raw : spec.split(",")) {
      String part = raw.strip();
      if (part.isEmpty()) {
        continue;
      }
      int eq = part.indexOf('=');
      if (eq < 0) {
        if (root != null) {
          throw invalid(spec, "two levels for every logger (\"" + root.levelStr.toLowerCase(Locale.ROOT) + "\" and \""
              + part + "\")");
        }
        root = level(part, spec);
        continue;
      }
      String name = part.substring(0, eq).strip();
      if (!LOGGER_NAME.matcher(name).matches()) {
        throw invalid(spec, "\"" + part + "\" is not LOGGER=LEVEL");
      }
      loggers.put(name, level(part.substring(eq + 1), spec));
    }
    return new LogLevels(root == null ? Level.INFO : root, loggers);
  }

  /** These levels with {@code logger} set to {@code level}. */
  public LogLevels with(String logger, Level level) {
    Map<String, Level> copy = new LinkedHashMap<>(loggers);
    copy.put(logger, level);
    return new LogLevels(root, copy);
  }

  /** The spec that parses back to these levels, e.g. {@code info,dev.modelplane.router=debug}. */
  @Override
  public String toString() {
    StringBuilder s = new StringBuilder(root.levelStr.toLowerCase(Locale.ROOT));
    loggers.forEach((name, level) -> s.append(',').append(name).append('=')
        .append(level.levelStr.toLowerCase(Locale.ROOT)));
    return s.toString();
  }

  private static Level level(String text, String spec) {
    String s = text.strip().toUpperCase(Locale.ROOT);
    return switch (s) {
      case "TRACE" -> Level.TRACE;
      case "DEBUG" -> Level.DEBUG;
      case "INFO" -> Level.INFO;
      case "WARN" -> Level.WARN;
      case "ERROR" -> Level.ERROR;
      case "OFF" -> Level.OFF;
      default -> throw new IllegalArgumentException("unknown log level \"" + text.strip() + "\" in \"" + spec
          + "\": use " + LEVELS);
    };
  }

  private static IllegalArgumentException invalid(String spec, String why) {
    return new IllegalArgumentException("invalid log levels \"" + spec + "\": " + why + "; use LEVEL and "
        + "LOGGER=LEVEL separated by commas, e.g. info,dev.modelplane.router=debug");
  }

  /** picocli converter for {@code --log-level}. */
  public static final class Converter implements CommandLine.ITypeConverter<LogLevels> {
    @Override
    public LogLevels convert(String value) {
      try {
        return parse(value);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.TypeConversionException(e.getMessage());
      }
    }
  }
}
