package dev.modelplane.common.logging;

import org.slf4j.event.Level;
import picocli.CommandLine.Option;

/**
 * The logging options of every long-running command, as a picocli mixin: {@code --log-format} and
 * {@code --log-level}. The command calls {@link #apply()} first thing.
 */
public final class LogOptions {
  @Option(names = "--log-format", defaultValue = "keyvalue", paramLabel = "FORMAT",
      converter = LogFormat.Converter.class,
      description = "keyvalue (one key=value line per event) or json (one JSON object per line), on stderr. "
          + "Default: ${DEFAULT-VALUE}.")
  LogFormat format = LogFormat.KEYVALUE;

  @Option(names = "--log-level", defaultValue = "info", paramLabel = "LEVELS", converter = LogLevels.Converter.class,
      description = "A level (trace, debug, info, warn, error, off), then LOGGER=LEVEL overrides, comma-separated, "
          + "e.g. info,dev.modelplane.router=debug. io.fabric8, io.javaoperatorsdk, io.netty, io.vertx, io.grpc and "
          + "ai.djl stay at warn unless named. Default: ${DEFAULT-VALUE}.")
  LogLevels levels = LogLevels.DEFAULT;

  /** The format asked for. */
  public LogFormat format() {
    return format;
  }

  /** Uses {@code f} instead of {@code --log-format} (a command's own format flag). */
  public void format(LogFormat f) {
    format = f;
  }

  /** The levels asked for. */
  public LogLevels levels() {
    return levels;
  }

  /** Configures logging as asked. */
  public void apply() {
    LogSetup.configure(format, levels);
  }

  /** Configures logging as asked, with {@code logger} at {@code level} on top (a command's own debug switch). */
  public void apply(String logger, Level level) {
    LogSetup.configure(format, levels.with(logger, ch.qos.logback.classic.Level.toLevel(level.name())));
  }
}
