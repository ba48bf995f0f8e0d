package dev.modelplane.common.logging;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A message already written as {@code word key=value key="quoted value"…}, the shape of the operator's log lines
 * ({@code status isvc=ns/chat phase=READY}). The key=value layout prints such a message as
 * {@code event=status isvc=ns/chat phase=READY}, unchanged; the JSON layout turns it into fields.
 *
 * @param event the leading word
 * @param pairs the key=value pairs, values unquoted, in order
 */
record StructuredMessage(String event, List<Map.Entry<String, String>> pairs) {
  private static final Pattern SHAPE = Pattern.compile(
      "[a-z][\\w.-]*( [a-zA-Z][\\w.-]*=(\"([^\"\\\\]|\\\\.)*\"|[^\\s\"]+))*");
  private static final Pattern PAIR = Pattern.compile(" ([a-zA-Z][\\w.-]*)=(\"((?:[^\"\\\\]|\\\\.)*)\"|[^\\s\"]+)");

  /** The message's parts, or null when it is free text. */
  static StructuredMessage parse(String message) {
    if (message == null || !SHAPE.matcher(message).matches()) {
      return null;
    }
    int space = message.indexOf(' ');
    String event = space < 0 ? message : message.substring(0, space);
    List<Map.Entry<String, String>> pairs = new ArrayList<>();
    Matcher m = PAIR.matcher(message);
    int at = event.length();
    while (at < message.length() && m.find(at)) {
      String value = m.group(3) != null ? unescape(m.group(3)) : m.group(2);
      pairs.add(Map.entry(m.group(1), value));
      at = m.end();
    }
    return new StructuredMessage(event, List.copyOf(pairs));
  }

  private static String unescape(String quoted) {
    StringBuilder out = new StringBuilder(quoted.length());
    for (int i = 0; i < quoted.length(); i++) {
      char c = quoted.charAt(i);
      if (c == '\\' && i + 1 < quoted.length()) {
        char next = quoted.charAt(++i);
        out.append(switch (next) {
          case 'n' -> '\n';
          case 't' -> '\t';
          case 'r' -> '\r';
          default -> next;
        });
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }
}
