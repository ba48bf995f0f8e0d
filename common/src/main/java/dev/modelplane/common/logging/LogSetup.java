package dev.modelplane.common.logging;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.jul.LevelChangePropagator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.Layout;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.slf4j.ILoggerFactory;
import org.slf4j.LoggerFactory;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Configures the one logging backend (Logback) of every modelplane process: one appender on standard error with the
 * {@linkplain KeyValueLayout key=value} or {@linkplain JsonLayout JSON} layout, and the levels given. Libraries that
 * talk a lot at INFO ({@link #QUIET_LIBRARIES}) stay at WARN (or the root level, when that is stricter) unless the
 * levels name them; loggers whose warnings no user can act on ({@link #UNACTIONABLE}) only show errors unless named.
 * Without a call, {@link DefaultLogConfigurator} sets up key=value at INFO the same way.
 */
public final class LogSetup {
  /** Logger prefixes kept at WARN unless named: Kubernetes client, JOSDK, Netty, Vert.x, gRPC, DJL (tokenizers). */
  public static final List<String> QUIET_LIBRARIES =
      List.of("io.fabric8", "io.javaoperatorsdk", "io.netty", "io.vertx", "io.grpc", "ai.djl");

  /**
   * Loggers kept at ERROR unless named: the Kubernetes client's warning that a kind's API version is not yet stable,
   * which every command using an alpha or beta kind (InferenceObjective, LLMKube's kinds) would print each time.
   */
  public static final List<String> UNACTIONABLE =
      List.of("io.fabric8.kubernetes.client.dsl.internal.VersionUsageUtils");

  private static final String APPENDER = "modelplane";

  private LogSetup() {
  }

  /**
   * Writes every log event to standard error in {@code format}, at {@code levels} (e.g.
   * {@code info,dev.modelplane.router=debug}).
   *
   * @throws IllegalArgumentException for an unknown level, naming it
   */
  public static void configure(LogFormat format, String levels) {
    configure(format, LogLevels.parse(levels));
  }

  /** Writes every log event to standard error in {@code format}, at {@code levels}. */
  public static void configure(LogFormat format, LogLevels levels) {
    configure(format, levels, null);
  }

  /** As {@link #configure(LogFormat, LogLevels)}, writing to {@code out} instead of standard error (tests). */
  public static void configure(LogFormat format, LogLevels levels, OutputStream out) {
    ILoggerFactory factory = LoggerFactory.getILoggerFactory();
    if (!(factory instanceof LoggerContext context)) {
      throw new IllegalStateException("the logging backend is " + factory.getClass().getName()
          + ", not Logback: remove other SLF4J providers from the class path");
    }
    install(context, format, levels, out);
  }

  /** Replaces {@code context}'s configuration; {@code out} null means standard error. */
  static void install(LoggerContext context, LogFormat format, LogLevels levels, OutputStream out) {
    context.reset();
    Layout<ILoggingEvent> layout = format == LogFormat.JSON ? new JsonLayout() : new KeyValueLayout();
    layout.setContext(context);
    layout.start();
    LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
    encoder.setContext(context);
    encoder.setCharset(StandardCharsets.UTF_8);
    encoder.setLayout(layout);
    encoder.start();
    OutputStreamAppender<ILoggingEvent> appender;
    if (out == null) {
      ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
      console.setTarget("System.err");
      appender = console;
    } else {
      appender = new OutputStreamAppender<>();
      appender.setOutputStream(out);
    }
    appender.setName(APPENDER);
    appender.setContext(context);
    appender.setEncoder(encoder);
    appender.start();
    // java.util.logging (gRPC) goes to the same appender; the propagator copies Logback's levels to JUL so that
    // events Logback would drop are not even formatted there.
    LevelChangePropagator propagator = new LevelChangePropagator();
    propagator.setContext(context);
    propagator.setResetJUL(true);
    context.addListener(propagator);
    propagator.start();
    if (!SLF4JBridgeHandler.isInstalled()) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      SLF4JBridgeHandler.install();
    }
    Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
    root.addAppender(appender);
    root.setLevel(levels.root());
    Level quiet = levels.root().isGreaterOrEqual(Level.WARN) ? levels.root() : Level.WARN;
    for (String library : QUIET_LIBRARIES) {
      context.getLogger(library).setLevel(quiet);
    }
    Level unactionable = levels.root().isGreaterOrEqual(Level.ERROR) ? levels.root() : Level.ERROR;
    for (String logger : UNACTIONABLE) {
      context.getLogger(logger).setLevel(unactionable);
    }
    levels.loggers().forEach((name, level) -> context.getLogger(name).setLevel(level));
  }
}
