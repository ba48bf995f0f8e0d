package dev.modelplane.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The PromQL of deploy/monitoring as MonitoringUpIT runs it: every dashboard panel's targets with Grafana's variables
 * replaced by concrete values, and every alert's expression reduced to its signal side.
 *
 * <p>The signal side of an alert: an alert's expression is usually a comparison against a threshold that is false on
 * a healthy platform, so the expression itself returns nothing there and an empty answer would prove nothing. When
 * the expression's top-level operator (outside any parentheses, braces or brackets) is a comparison with a number on
 * one side, the signal side is the other operand: the value the alert compares, which must exist once the platform
 * has served load. Any other expression is its own signal side.
 */
final class MonitoringQueries {
  /** Grafana's variables, as a dashboard's queries use them, and the values the test gives them. */
  static final Map<String, String> VARIABLES = variables();

  private static final Pattern COMPARISON = Pattern.compile("(==|!=|>=|<=|>|<)(\\s*bool\\b)?");
  private static final Pattern NUMBER = Pattern.compile("\\s*[0-9.]+(e[+-]?[0-9]+)?\\s*");

  /** A query to run, named for the failure message. */
  record Query(String where, String expr) {
  }

  private MonitoringQueries() {
  }

  private static Map<String, String> variables() {
    Map<String, String> v = new LinkedHashMap<>();
    v.put("$__rate_interval", "1m"); // at least four scrape intervals of up's Prometheus (5 s)
    v.put("$__interval", "15s");
    v.put("$__range", "10m");
    v.put("${datasource}", "");
    for (String regexVariable : List.of("pool", "model", "controller", "namespace", "pod")) {
      v.put("$" + regexVariable, ".*"); // the dashboards' "All" value
    }
    return v;
  }

  /** {@code expr} with every Grafana variable replaced; fails on a variable the test gives no value. */
  static String substitute(String expr) {
    String out = expr;
    for (Map.Entry<String, String> e : VARIABLES.entrySet()) {
      out = out.replace(e.getKey(), e.getValue());
    }
    if (out.contains("$")) {
      throw new IllegalArgumentException("a Grafana variable the test does not know: " + expr);
    }
    return out;
  }

  /** Every target of every panel of the dashboards in {@code dir}, variables substituted. */
  static List<Query> panels(Path dir) throws IOException {
    List<Query> out = new ArrayList<>();
    List<Path> files;
    try (var list = Files.list(dir)) {
      files = list.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    ObjectMapper json = new ObjectMapper();
    for (Path file : files) {
      for (JsonNode panel : json.readTree(file.toFile()).path("panels")) {
        for (JsonNode target : panel.path("targets")) {
          out.add(new Query(file.getFileName() + " / panel \"" + panel.path("title").asText() + "\" target "
              + target.path("refId").asText(), substitute(target.path("expr").asText())));
        }
      }
    }
    return out;
  }

  /** Every alert of the PrometheusRule file, by alert name, as its signal side. */
  static Map<String, String> alertSignals(Path prometheusRule) throws IOException {
    Map<String, String> out = new LinkedHashMap<>();
    JsonNode rule = new ObjectMapper(new YAMLFactory()).readTree(prometheusRule.toFile());
    for (JsonNode group : rule.at("/spec/groups")) {
      for (JsonNode r : group.path("rules")) {
        if (r.has("alert")) {
          out.put(r.path("alert").asText(), signalSide(r.path("expr").asText()));
        }
      }
    }
    return out;
  }

  /** The signal side of {@code expr} (see the class comment). */
  static String signalSide(String expr) {
    int depth = 0;
    boolean quoted = false;
    for (int i = 0; i < expr.length(); i++) {
      char c = expr.charAt(i);
      if (c == '"' && (i == 0 || expr.charAt(i - 1) != '\\')) {
        quoted = !quoted;
      } else if (!quoted && "([{".indexOf(c) >= 0) {
        depth++;
      } else if (!quoted && ")]}".indexOf(c) >= 0) {
        depth--;
      } else if (!quoted && depth == 0) {
        Matcher m = COMPARISON.matcher(expr).region(i, expr.length());
        if (m.lookingAt()) {
          String left = expr.substring(0, i);
          String right = expr.substring(m.end());
          if (NUMBER.matcher(right).matches()) {
            return left.strip();
          }
          if (NUMBER.matcher(left).matches()) {
            return right.strip();
          }
          i = m.end() - 1;
        }
      }
    }
    return expr.strip();
  }
}
