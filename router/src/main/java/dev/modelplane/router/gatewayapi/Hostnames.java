package dev.modelplane.router.gatewayapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Gateway API hostnames: an exact name or a {@code *.suffix} wildcard, which stands for one or more labels in front
 * of the suffix (so {@code *.example.com} covers {@code a.example.com} and {@code a.b.example.com}, never
 * {@code example.com} itself). Comparison ignores case.
 */
final class Hostnames {
  /** Specificity of a match against no hostname at all (anything goes). */
  static final int ANY = 0;
  /** Specificity when nothing matches. */
  static final int NONE = -1;
  private static final int EXACT_BONUS = 1000;

  private Hostnames() {}

  static boolean isWildcard(String hostname) {
    return hostname != null && hostname.startsWith("*.");
  }

  /** Whether the request host {@code host} falls under {@code pattern}; a null pattern admits every host. */
  static boolean matches(String pattern, String host) {
    if (pattern == null) {
      return true;
    }
    String h = host.toLowerCase(Locale.ROOT);
    String p = pattern.toLowerCase(Locale.ROOT);
    if (isWildcard(p)) {
      String suffix = p.substring(1);
      return h.length() > suffix.length() && h.endsWith(suffix);
    }
    return h.equals(p);
  }

  /**
   * How specifically {@code pattern} matches {@code host}: any exact match outranks any wildcard match, and among
   * wildcards the longer one wins. {@link #ANY} for a null pattern, {@link #NONE} when it does not match.
   */
  static int specificity(String pattern, String host) {
    if (pattern == null) {
      return ANY;
    }
    if (!matches(pattern, host)) {
      return NONE;
    }
    return isWildcard(pattern) ? pattern.length() : EXACT_BONUS + pattern.length();
  }

  /** The best {@link #specificity} over a list of hostnames, where an empty list admits every host. */
  static int specificity(List<String> hostnames, String host) {
    if (hostnames.isEmpty()) {
      return ANY;
    }
    int best = NONE;
    for (String hostname : hostnames) {
      best = Math.max(best, specificity(hostname, host));
    }
    return best;
  }

  /**
   * The hostnames a route serves through a listener: the route's hostnames that the listener's hostname admits, each
   * narrowed to the more specific of the two. An empty result list means "every host"; null means the two have no
   * hostname in common.
   */
  static List<String> intersect(String listenerHostname, List<String> routeHostnames) {
    if (routeHostnames.isEmpty()) {
      return listenerHostname == null ? List.of() : List.of(listenerHostname);
    }
    if (listenerHostname == null) {
      return List.copyOf(routeHostnames);
    }
    List<String> out = new ArrayList<>();
    for (String route : routeHostnames) {
      String common = narrower(listenerHostname, route);
      if (common != null && !out.contains(common)) {
        out.add(common);
      }
    }
    return out.isEmpty() ? null : out;
  }

  /** The hostname both a and b admit and that is the more specific of them, or null when they are disjoint. */
  private static String narrower(String a, String b) {
    boolean wildA = isWildcard(a);
    boolean wildB = isWildcard(b);
    if (!wildA && !wildB) {
      return a.equalsIgnoreCase(b) ? b : null;
    }
    if (wildA && !wildB) {
      return matches(a, b) ? b : null;
    }
    if (!wildA) {
      return matches(b, a) ? a : null;
    }
    String suffixA = a.substring(1).toLowerCase(Locale.ROOT);
    String suffixB = b.substring(1).toLowerCase(Locale.ROOT);
    if (suffixB.endsWith(suffixA)) {
      return b;
    }
    return suffixA.endsWith(suffixB) ? a : null;
  }
}
