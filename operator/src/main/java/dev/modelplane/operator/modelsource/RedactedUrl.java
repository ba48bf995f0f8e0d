package dev.modelplane.operator.modelsource;

/**
 * A source URL as logs, Events and status messages may show it: scheme, host, port and path, without the query
 * string (a pre-signed S3 URL carries its signature there), the fragment and, for http(s), any
 * {@code user:password@}. Storage URIs keep their {@code @}: it is a revision ({@code hf://org/m@v1}) or a region
 * ({@code s3://bucket@us-west-2/prefix}) there.
 */
public final class RedactedUrl {
  private RedactedUrl() {
  }

  /**
   * Renders {@code url} without query, fragment and userinfo; a string without {@code ://} keeps everything before
   * its first {@code ?} or {@code #}. Null stays null.
   */
  public static String of(String url) {
    if (url == null) {
      return null;
    }
    String bare = cut(url.strip(), '?', '#');
    int schemeEnd = bare.indexOf("://");
    if (schemeEnd < 0) {
      return bare;
    }
    String scheme = bare.substring(0, schemeEnd);
    String rest = bare.substring(schemeEnd + 3);
    int slash = rest.indexOf('/');
    String authority = slash < 0 ? rest : rest.substring(0, slash);
    String path = slash < 0 ? "" : rest.substring(slash);
    int at = authority.lastIndexOf('@');
    boolean web = scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https");
    return scheme + "://" + (at < 0 || !web ? authority : authority.substring(at + 1)) + path;
  }

  private static String cut(String s, char first, char second) {
    int end = s.length();
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == first || c == second) {
        end = i;
        break;
      }
    }
    return s.substring(0, end);
  }
}
