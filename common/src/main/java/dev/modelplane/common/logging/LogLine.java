package dev.modelplane.common.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import java.time.Instant;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.event.KeyValuePair;

/**
 * What both layouts print for one event, in order: time, level, logger, the message (free text, or an
 * {@linkplain StructuredMessage event word and its pairs}), the SLF4J key-value pairs, the MDC, and an exception as
 * {@code error} (type and message) and {@code stack} (the full trace: every cause, every frame).
 *
 * @param time when it happened
 * @param level {@code INFO}, {@code WARN}, …
 * @param logger the full logger name
 * @param text the message as formatted
 * @param structured the message's parts when it has the {@code word key=value…} shape, else null
 * @param fields key-value pairs, then MDC entries, in order; values are kept as given (numbers stay numbers)
 * @param error {@code Type: message} of the exception, or null
 * @param stack the exception as Java prints it, causes included, or null
 */
record LogLine(Instant time, String level, String logger, String text, StructuredMessage structured,
    List<Map.Entry<String, Object>> fields, String error, String stack) {
  /** JOSDK's MDC keys while it reconciles a resource; condensed to {@code resource=ns/name resource.kind=Kind}. */
  private static final String JOSDK_PREFIX = "resource.";
  private static final String JOSDK_NAME = "resource.name";
  private static final String JOSDK_NAMESPACE = "resource.namespace";
  private static final String JOSDK_KIND = "resource.kind";

  static LogLine of(ILoggingEvent e) {
    String text = e.getFormattedMessage() == null ? "" : e.getFormattedMessage();
    List<Map.Entry<String, Object>> fields = new ArrayList<>();
    List<KeyValuePair> pairs = e.getKeyValuePairs();
    if (pairs != null) {
      for (KeyValuePair p : pairs) {
        fields.add(new AbstractMap.SimpleImmutableEntry<>(String.valueOf(p.key), p.value));
      }
    }
    addMdc(e.getMDCPropertyMap(), fields);
    IThrowableProxy t = e.getThrowableProxy();
    String error = null;
    String stack = null;
    if (t != null) {
      error = t.getMessage() == null ? t.getClassName() : t.getClassName() + ": " + t.getMessage();
      stack = ThrowableProxyUtil.asString(t).stripTrailing();
    }
    return new LogLine(e.getInstant(), e.getLevel().toString(), e.getLoggerName(), text,
        StructuredMessage.parse(text), fields, error, stack);
  }

  /** The logger's last name segment: {@code Router} for {@code dev.modelplane.router.Router}. */
  String shortLogger() {
    return logger.substring(logger.lastIndexOf('.') + 1);
  }

  private static void addMdc(Map<String, String> mdc, List<Map.Entry<String, Object>> fields) {
    if (mdc == null || mdc.isEmpty()) {
      return;
    }
    String name = mdc.get(JOSDK_NAME);
    if (name != null) {
      String ns = mdc.get(JOSDK_NAMESPACE);
      boolean namespaced = ns != null && !ns.isEmpty() && !ns.equals("no namespace");
      fields.add(Map.entry("resource", namespaced ? ns + "/" + name : name));
      if (mdc.get(JOSDK_KIND) != null) {
        fields.add(Map.entry(JOSDK_KIND, mdc.get(JOSDK_KIND)));
      }
    }
    mdc.entrySet().stream().filter(en -> name == null || !en.getKey().startsWith(JOSDK_PREFIX))
        .sorted(Map.Entry.comparingByKey())
        .forEach(en -> fields.add(Map.entry(en.getKey(), String.valueOf(en.getValue()))));
  }
}
