package dev.modelplane.common.logging;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.LayoutBase;
import java.util.Map;

/**
 * One {@code key=value} line per event (logfmt):
 * {@code ts=2026-11-01T10:00:00Z level=INFO logger=GatewayServer msg="gateway listening" host=0.0.0.0 port=8080}.
 * A message already in the {@code word key=value…} shape is printed as {@code event=word key=value…}, unchanged.
 * Values are quoted when they are empty or hold a space, a quote, {@code =} or a control character; inside quotes,
 * {@code "} and {@code \} are escaped and line breaks and tabs become {@code \n}, {@code \r}, {@code \t}, so an
 * event with a multi-line message or a stack trace stays on one line.
 */
public final class KeyValueLayout extends LayoutBase<ILoggingEvent> {
  @Override
  public String doLayout(ILoggingEvent event) {
    return format(LogLine.of(event));
  }

  static String format(LogLine line) {
    StringBuilder out = new StringBuilder(160);
    out.append("ts=").append(line.time()).append(" level=").append(line.level()).append(" logger=")
        .append(line.shortLogger());
    if (line.structured() != null) {
      out.append(" event=");
      appendEscaped(out, line.text()); // a quoted value may hold a line break
    } else {
      out.append(" msg=");
      appendValue(out, line.text());
    }
    for (Map.Entry<String, Object> field : line.fields()) {
      out.append(' ');
      appendKey(out, field.getKey());
      out.append('=');
      appendValue(out, field.getValue());
    }
    if (line.error() != null) {
      out.append(" error=");
      appendValue(out, line.error());
      out.append(" stack=");
      appendValue(out, line.stack());
    }
    return out.append('\n').toString();
  }

  /** Appends a key, with anything but letters, digits and {@code _.-/} replaced by {@code _}. */
  static void appendKey(StringBuilder out, String key) {
    if (key.isEmpty()) {
      out.append('_');
      return;
    }
    for (int i = 0; i < key.length(); i++) {
      char c = key.charAt(i);
      out.append(Character.isLetterOrDigit(c) || c == '_' || c == '.' || c == '-' || c == '/' ? c : '_');
    }
  }

  /** Appends a value, quoted when it is empty or holds a space, a quote, {@code =} or a control character. */
  static void appendValue(StringBuilder out, Object value) {
    String s = String.valueOf(value);
    boolean quote = s.isEmpty();
    for (int i = 0; i < s.length() && !quote; i++) {
      char c = s.charAt(i);
      quote = c == ' ' || c == '"' || c == '=' || c < 0x20 || c == 0x7f;
    }
    if (!quote) {
      out.append(s);
      return;
    }
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> appendChar(out, c);
      }
    }
    out.append('"');
  }

  /** Appends text as it is, except that line breaks and tabs are escaped and other control characters blanked. */
  private static void appendEscaped(StringBuilder out, String text) {
    for (int i = 0; i < text.length(); i++) {
      appendChar(out, text.charAt(i));
    }
  }

  private static void appendChar(StringBuilder out, char c) {
    switch (c) {
      case '\n' -> out.append("\\n");
      case '\r' -> out.append("\\r");
      case '\t' -> out.append("\\t");
      default -> out.append(c < 0x20 || c == 0x7f ? ' ' : c);
    }
  }
}
