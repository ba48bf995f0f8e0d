package dev.modelplane.common.metrics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Parses the Prometheus text exposition format (version 0.0.4), keeping only the metric families asked for. Model
 * servers expose hundreds of histogram lines; skipping unwanted names before touching their labels keeps the router's
 * scrape every 50 ms cheap. The operator's idle probe reads model servers' gauges with it too, so label values holding
 * braces, commas or escaped quotes are read the same way everywhere.
 */
public final class PrometheusTextParser {
  private PrometheusTextParser() {
  }

  /** Parses {@code text}, returning samples of the {@code wanted} families by name (absent names are missing). */
  public static Map<String, List<PrometheusSample>> parse(CharSequence text, Set<String> wanted) {
    Map<String, List<PrometheusSample>> out = new HashMap<>();
    int length = text.length();
    int pos = 0;
    while (pos < length) {
      int end = pos;
      while (end < length && text.charAt(end) != '\n') {
        end++;
      }
      parseLine(text, pos, end, wanted, out);
      pos = end + 1;
    }
    return out;
  }

  private static void parseLine(CharSequence text, int start, int end, Set<String> wanted,
      Map<String, List<PrometheusSample>> out) {
    int pos = skipSpaces(text, start, end);
    if (pos >= end || text.charAt(pos) == '#') {
      return;
    }
    int nameStart = pos;
    while (pos < end && isNameChar(text.charAt(pos))) {
      pos++;
    }
    if (pos == nameStart) {
      return;
    }
    String name = text.subSequence(nameStart, pos).toString();
    if (!wanted.contains(name)) {
      return;
    }
    Map<String, String> labels = Map.of();
    if (pos < end && text.charAt(pos) == '{') {
      labels = new HashMap<>();
      pos = parseLabels(text, pos + 1, end, labels);
      if (pos < 0) {
        return; // malformed line: ignore it, as a scrape must not fail on one bad series
      }
    }
    pos = skipSpaces(text, pos, end);
    int valueStart = pos;
    while (pos < end && !Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
    if (valueStart == pos) {
      return;
    }
    double value;
    try {
      value = parseValue(text.subSequence(valueStart, pos).toString());
    } catch (NumberFormatException e) {
      return;
    }
    long timestamp = 0;
    pos = skipSpaces(text, pos, end);
    if (pos < end) {
      int tsStart = pos;
      while (pos < end && !Character.isWhitespace(text.charAt(pos))) {
        pos++;
      }
      try {
        timestamp = Long.parseLong(text.subSequence(tsStart, pos).toString());
      } catch (NumberFormatException e) {
        timestamp = 0;
      }
    }
    out.computeIfAbsent(name, k -> new ArrayList<>(2)).add(new PrometheusSample(labels, value, timestamp));
  }

  /** Parses {@code a="x",b="y"}; returns the position after the closing brace, or -1 when malformed. */
  private static int parseLabels(CharSequence text, int pos, int end, Map<String, String> labels) {
    StringBuilder value = new StringBuilder();
    while (true) {
      pos = skipSpaces(text, pos, end);
      if (pos >= end) {
        return -1;
      }
      if (text.charAt(pos) == '}') {
        return pos + 1;
      }
      int nameStart = pos;
      while (pos < end && isNameChar(text.charAt(pos))) {
        pos++;
      }
      String labelName = text.subSequence(nameStart, pos).toString();
      pos = skipSpaces(text, pos, end);
      if (pos >= end || text.charAt(pos) != '=') {
        return -1;
      }
      pos = skipSpaces(text, pos + 1, end);
      if (pos >= end || text.charAt(pos) != '"') {
        return -1;
      }
      pos++;
      value.setLength(0);
      while (pos < end && text.charAt(pos) != '"') {
        char c = text.charAt(pos);
        if (c == '\\' && pos + 1 < end) {
          char next = text.charAt(++pos);
          value.append(next == 'n' ? '\n' : next);
        } else {
          value.append(c);
        }
        pos++;
      }
      if (pos >= end) {
        return -1;
      }
      pos++; // closing quote
      labels.put(labelName, value.toString());
      pos = skipSpaces(text, pos, end);
      if (pos < end && text.charAt(pos) == ',') {
        pos++;
      }
    }
  }

  private static double parseValue(String s) {
    return switch (s) {
      case "NaN" -> Double.NaN;
      case "+Inf", "Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(s);
    };
  }

  private static boolean isNameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == ':';
  }

  private static int skipSpaces(CharSequence text, int pos, int end) {
    while (pos < end && (text.charAt(pos) == ' ' || text.charAt(pos) == '\t' || text.charAt(pos) == '\r')) {
      pos++;
    }
    return pos;
  }
}
