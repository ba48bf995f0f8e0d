package dev.modelplane.operator.app;

import java.io.PrintStream;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Logger;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.helpers.NOPMDCAdapter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

/**
 * A minimal SLF4J provider that writes one {@code key=value} line per event to stderr:
 * {@code ts=… level=INFO logger=InferenceServiceReconciler event=status isvc=ns/chat phase=Ready}. Messages already
 * written as {@code word key=value…} keep their shape; any other text becomes {@code msg="…"}. The level is WARN
 * until {@link #setLevel} (the operator command sets INFO). Registered only by the CLI's service file, so libraries
 * and tests keep their own logging.
 */
public final class KeyValueLogs implements SLF4JServiceProvider {
  private static final Pattern STRUCTURED = Pattern.compile(
      "[a-z][\\w.-]*( [a-zA-Z][\\w.-]*=(\"([^\"\\\\]|\\\\.)*\"|[^\\s\"]+))*");
  private static volatile Level threshold = Level.WARN;
  private static volatile PrintStream out = System.err;

  private final ILoggerFactory factory = new Factory();
  private final IMarkerFactory markers = new BasicMarkerFactory();
  private final MDCAdapter mdc = new NOPMDCAdapter();

  /** Events at this level and above are written. */
  public static void setLevel(Level level) {
    threshold = level;
  }

  /** For tests: where lines go. */
  static void setOutput(PrintStream stream) {
    out = stream;
  }

  @Override
  public ILoggerFactory getLoggerFactory() {
    return factory;
  }

  @Override
  public IMarkerFactory getMarkerFactory() {
    return markers;
  }

  @Override
  public MDCAdapter getMDCAdapter() {
    return mdc;
  }

  @Override
  public String getRequestedApiVersion() {
    return "2.0.99";
  }

  @Override
  public void initialize() {
  }

  private static final class Factory implements ILoggerFactory {
    private final Map<String, Logger> loggers = new ConcurrentHashMap<>();

    @Override
    public Logger getLogger(String name) {
      return loggers.computeIfAbsent(name, KeyValueLogger::new);
    }
  }

  /** Formats one event; package-private for tests. */
  static String line(Instant ts, Level level, String logger, String message, Throwable error) {
    StringBuilder line = new StringBuilder(160);
    line.append("ts=").append(ts).append(" level=").append(level).append(" logger=")
        .append(logger.substring(logger.lastIndexOf('.') + 1));
    String text = message == null ? "" : message;
    if (STRUCTURED.matcher(text).matches()) {
      line.append(" event=").append(text);
    } else {
      line.append(" msg=").append(quote(text));
    }
    if (error != null) {
      line.append(" error=").append(quote(error.getClass().getName() + ": " + error.getMessage()));
      StackTraceElement[] stack = error.getStackTrace();
      if (stack.length > 0) {
        line.append(" at=").append(quote(stack[0].toString()));
      }
    }
    return line.toString();
  }

  static String quote(String text) {
    return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n").replace("\r", "") + "\"";
  }

  private static final class KeyValueLogger extends LegacyAbstractLogger {
    private static final long serialVersionUID = 1L;

    KeyValueLogger(String name) {
      this.name = name;
    }

    private boolean on(Level level) {
      return level.toInt() >= threshold.toInt();
    }

    @Override
    public boolean isTraceEnabled() {
      return on(Level.TRACE);
    }

    @Override
    public boolean isDebugEnabled() {
      return on(Level.DEBUG);
    }

    @Override
    public boolean isInfoEnabled() {
      return on(Level.INFO);
    }

    @Override
    public boolean isWarnEnabled() {
      return on(Level.WARN);
    }

    @Override
    public boolean isErrorEnabled() {
      return on(Level.ERROR);
    }

    @Override
    protected String getFullyQualifiedCallerName() {
      return null;
    }

    @Override
    protected void handleNormalizedLoggingCall(Level level, Marker marker, String pattern, Object[] args,
        Throwable throwable) {
      if (!on(level)) {
        return;
      }
      String message = MessageFormatter.basicArrayFormat(pattern, args);
      out.println(line(Instant.now(), level, name, message, throwable));
    }
  }
}
