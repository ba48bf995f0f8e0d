package dev.modelplane.router;

import java.io.PrintStream;
import java.time.Instant;

/**
 * One-line structured logs ({@code ts=… level=… msg="…" key=value…}) on standard error. The CLI ships no logging
 * backend, and the router's own events must still be visible.
 */
public final class Log {
  private static volatile PrintStream out = System.err;
  private static volatile boolean debug = Boolean.getBoolean("modelplane.router.debug");

  private Log() {
  }

  public static void info(String msg, Object... kv) {
    write("info", msg, kv);
  }

  public static void warn(String msg, Object... kv) {
    write("warn", msg, kv);
  }

  public static void error(String msg, Object... kv) {
    write("error", msg, kv);
  }

  public static void debug(String msg, Object... kv) {
    if (debug) {
      write("debug", msg, kv);
    }
  }

  public static void setDebug(boolean enabled) {
    debug = enabled;
  }

  /** Redirects logs (tests). */
  public static void setOutput(PrintStream stream) {
    out = stream;
  }

  static String format(String level, String msg, Object... kv) {
    StringBuilder sb = new StringBuilder(96);
    sb.append("ts=").append(Instant.now()).append(" level=").append(level).append(" msg=");
    appendValue(sb, msg);
    for (int i = 0; i + 1 < kv.length; i += 2) {
      sb.append(' ').append(kv[i]).append('=');
      appendValue(sb, kv[i + 1]);
    }
    return sb.toString();
  }

  private static void write(String level, String msg, Object... kv) {
    out.println(format(level, msg, kv));
  }

  /** Appends a value, quoting it when it has spaces, quotes or is empty. */
  public static void appendValue(StringBuilder sb, Object value) {
    String s = String.valueOf(value);
    boolean quote = s.isEmpty();
    for (int i = 0; i < s.length() && !quote; i++) {
      char c = s.charAt(i);
      quote = c == ' ' || c == '"' || c == '=' || c < 0x20;
    }
    if (!quote) {
      sb.append(s);
      return;
    }
    sb.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        default -> sb.append(c < 0x20 ? ' ' : c);
      }
    }
    sb.append('"');
  }
}
