package dev.modelplane.router.gatewayapi;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * A {@code URLRewrite} filter.
 *
 * @param hostname the Host to send upstream, or null to keep the request's
 * @param fullPath the path that replaces the whole path ({@code ReplaceFullPath}), or null
 * @param prefix the path that replaces the matched prefix ({@code ReplacePrefixMatch}), or null
 */
record UrlRewrite(String hostname, String fullPath, String prefix) {

  /** Parses the filter's {@code urlRewrite} object; a path modifier of an unknown type is a problem. */
  static UrlRewrite parse(JsonNode rewrite, String where, List<String> problems) {
    String hostname = Json.text(rewrite, "hostname", null);
    JsonNode path = rewrite.path("path");
    if (path.isMissingNode() || path.isNull()) {
      return new UrlRewrite(hostname, null, null);
    }
    String type = Json.text(path, "type", "");
    return switch (type) {
      case "ReplaceFullPath" -> new UrlRewrite(hostname, Json.text(path, "replaceFullPath", "/"), null);
      case "ReplacePrefixMatch" -> new UrlRewrite(hostname, null, Json.text(path, "replacePrefixMatch", "/"));
      default -> {
        problems.add(where + ".urlRewrite.path.type " + type + " is not supported (use ReplaceFullPath or "
            + "ReplacePrefixMatch)");
        yield null;
      }
    };
  }

  /**
   * The path after this rewrite, given the match that selected the request. A prefix replacement needs the match to
   * be a path prefix that the path has; otherwise the path is left as it is.
   */
  String apply(String path, MatchSpec match) {
    if (fullPath != null) {
      return fullPath;
    }
    if (prefix == null || match == null || !MatchSpec.PREFIX.equals(match.pathType())
        || !MatchSpec.prefixMatches(match.pathValue(), path)) {
      return path;
    }
    String rest = path.substring(MatchSpec.trimSlash(match.pathValue()).length());
    String rewritten = MatchSpec.trimSlash(prefix) + rest;
    return rewritten.isEmpty() ? "/" : rewritten;
  }
}
