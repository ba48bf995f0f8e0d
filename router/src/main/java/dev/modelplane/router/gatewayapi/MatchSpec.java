package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * One {@code HTTPRouteMatch}: a path condition (defaulting to prefix {@code /}) and optionally a method, headers and
 * query parameters, all of which must hold.
 *
 * @param pathType {@code Exact}, {@code PathPrefix} or {@code RegularExpression}
 * @param pathValue the path, prefix or expression as written
 * @param pathPattern the compiled expression for {@code RegularExpression}, else null
 * @param method the method to require, or null
 * @param headers header conditions (names in lower case)
 * @param queryParams query parameter conditions (names as written: they are case-sensitive)
 */
record MatchSpec(String pathType, String pathValue, Pattern pathPattern, String method, List<ValueMatch> headers,
    List<ValueMatch> queryParams) {

  static final String EXACT = "Exact";
  static final String PREFIX = "PathPrefix";
  static final String REGEX = "RegularExpression";

  /** The match a rule without {@code matches} has: every path. */
  static final MatchSpec DEFAULT = new MatchSpec(PREFIX, "/", null, null, List.of(), List.of());

  /**
   * A header or query parameter condition: the value equals {@code exact}, or fully matches {@code pattern}.
   *
   * @param name the header (lower case) or parameter name
   * @param exact the value to equal, or null when matching by expression
   * @param pattern the expression the whole value must match, or null
   */
  record ValueMatch(String name, String exact, Pattern pattern) {
    boolean test(String value) {
      return value != null && (pattern == null ? value.equals(exact) : pattern.matcher(value).matches());
    }
  }

  /** Orders matches by the Gateway API's precedence, the strongest first (ties are left to the caller). */
  static final Comparator<MatchSpec> PRECEDENCE = Comparator
      .comparingInt(MatchSpec::pathRank).reversed()
      .thenComparing(Comparator.comparingInt(MatchSpec::prefixLength).reversed())
      .thenComparing(m -> m.method() == null)
      .thenComparing(Comparator.comparingInt((MatchSpec m) -> m.headers().size()).reversed())
      .thenComparing(Comparator.comparingInt((MatchSpec m) -> m.queryParams().size()).reversed());

  private int pathRank() {
    return switch (pathType) {
      case EXACT -> 3;
      case PREFIX -> 2;
      default -> 1;
    };
  }

  private int prefixLength() {
    return PREFIX.equals(pathType) ? pathValue.length() : 0;
  }

  /** Parses one match; what cannot be honoured is added to {@code problems} and the match is then null. */
  static MatchSpec parse(JsonNode match, String where, List<String> problems) {
    int before = problems.size();
    JsonNode path = match.path("path");
    String type = Json.text(path, "type", PREFIX);
    String value = Json.text(path, "value", "/");
    Pattern pattern = null;
    switch (type) {
      case EXACT, PREFIX -> { }
      case REGEX -> pattern = compile(value, where + ".path", problems);
      default -> problems.add(where + ".path.type " + type + " is not supported (use Exact, PathPrefix or "
          + "RegularExpression)");
    }
    String method = Json.text(match, "method", null);
    List<ValueMatch> headers = values(match, "headers", where, true, problems);
    List<ValueMatch> queryParams = values(match, "queryParams", where, false, problems);
    return problems.size() > before ? null : new MatchSpec(type, value, pattern, method, headers, queryParams);
  }

  private static List<ValueMatch> values(JsonNode match, String field, String where, boolean lowerCase,
      List<String> problems) {
    List<ValueMatch> out = new ArrayList<>();
    List<JsonNode> items = Json.list(match, field);
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      String at = where + "." + field + "[" + i + "]";
      String name = Json.text(item, "name", "");
      String value = Json.textKeepEmpty(item, "value", "");
      String type = Json.text(item, "type", EXACT);
      if (lowerCase) {
        name = name.toLowerCase(Locale.ROOT);
      }
      switch (type) {
        case EXACT -> out.add(new ValueMatch(name, value, null));
        case REGEX -> {
          Pattern pattern = compile(value, at, problems);
          if (pattern != null) {
            out.add(new ValueMatch(name, null, pattern));
          }
        }
        default -> problems.add(at + ".type " + type + " is not supported (use Exact or RegularExpression)");
      }
    }
    return List.copyOf(out);
  }

  private static Pattern compile(String regex, String where, List<String> problems) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      problems.add(where + " has an invalid regular expression " + regex + ": " + e.getDescription());
      return null;
    }
  }

  /** Whether the request satisfies every part of this match; {@code query} is the parsed query string. */
  boolean test(HttpRequestView request, Map<String, String> query) {
    if (method != null && !method.equals(request.method())) {
      return false;
    }
    if (!pathMatches(request.path() == null || request.path().isEmpty() ? "/" : request.path())) {
      return false;
    }
    for (ValueMatch header : headers) {
      if (!header.test(request.headers() == null ? null : request.headers().get(header.name()))) {
        return false;
      }
    }
    for (ValueMatch param : queryParams) {
      if (!param.test(query.get(param.name()))) {
        return false;
      }
    }
    return true;
  }

  private boolean pathMatches(String path) {
    return switch (pathType) {
      case EXACT -> path.equals(pathValue);
      case PREFIX -> prefixMatches(pathValue, path);
      default -> pathPattern.matcher(path).matches();
    };
  }

  /** Prefix matching on whole path segments; a trailing slash of the prefix is not significant. */
  static boolean prefixMatches(String prefix, String path) {
    String p = trimSlash(prefix);
    return p.isEmpty() || path.equals(p) || path.startsWith(p + "/");
  }

  /** The prefix without its trailing slash ({@code /} becomes the empty string). */
  static String trimSlash(String prefix) {
    return prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
  }

  /** The query string's parameters, percent-decoded; of a repeated name the first value counts. */
  static Map<String, String> parseQuery(String query) {
    Map<String, String> out = new LinkedHashMap<>();
    if (query == null || query.isEmpty()) {
      return out;
    }
    for (String pair : query.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq));
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      out.putIfAbsent(name, value);
    }
    return out;
  }

  private static String decode(String text) {
    try {
      return URLDecoder.decode(text, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return text;
    }
  }
}
