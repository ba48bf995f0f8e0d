package dev.modelplane.common.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/** Events with a fixed time and fixed stack frames, so layouts can be checked line for line. */
final class LogEvents {
  static final Instant T = Instant.parse("2026-11-01T10:00:00Z");
  private static final LoggerContext CONTEXT = new LoggerContext();

  private LogEvents() {
  }

  static LoggingEvent event(Level level, String logger, String message, Throwable error, Object... keyValues) {
    return event(level, logger, message, error, Map.of(), keyValues);
  }

  static LoggingEvent event(Level level, String logger, String message, Throwable error, Map<String, String> mdc,
      Object... keyValues) {
    LoggingEvent e = new LoggingEvent(LogEvents.class.getName(), CONTEXT.getLogger(logger), level, message, error,
        null);
    e.setInstant(T);
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      e.addKeyValuePair(new KeyValuePair((String) keyValues[i], keyValues[i + 1]));
    }
    e.setMDCPropertyMap(new LinkedHashMap<>(mdc));
    return e;
  }

  /** outer → middle → root, each with its own frames and the shared caller frame. */
  static IllegalStateException threeLevels() {
    IOException root = new IOException("root \"cause\"");
    root.setStackTrace(new StackTraceElement[] {frame("D", "read", 4), frame("C", "load", 3), frame("B", "main", 2)});
    UncheckedIOException middle = new UncheckedIOException("middle", root);
    middle.setStackTrace(new StackTraceElement[] {frame("C", "load", 3), frame("B", "main", 2)});
    IllegalStateException outer = new IllegalStateException("outer", middle);
    outer.setStackTrace(new StackTraceElement[] {frame("B", "run", 1), frame("B", "main", 2)});
    return outer;
  }

  private static StackTraceElement frame(String type, String method, int line) {
    return new StackTraceElement("x." + type, method, type + ".java", line);
  }
}
