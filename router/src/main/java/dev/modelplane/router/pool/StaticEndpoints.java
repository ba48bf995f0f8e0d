package dev.modelplane.router.pool;

import java.util.ArrayList;
import java.util.List;

/** Parses {@code --endpoints host:port,host:port,…} ({@code [v6]:port} for IPv6) for static mode. */
public final class StaticEndpoints {
  private StaticEndpoints() {
  }

  public static List<Endpoint> parse(String spec) {
    List<Endpoint> out = new ArrayList<>();
    if (spec == null || spec.isBlank()) {
      return out;
    }
    for (String raw : spec.split(",")) {
      String s = raw.trim();
      if (s.isEmpty()) {
        continue;
      }
      String host;
      String port;
      if (s.startsWith("[")) {
        int close = s.indexOf(']');
        if (close < 0 || close + 1 >= s.length() || s.charAt(close + 1) != ':') {
          throw new IllegalArgumentException("invalid endpoint '" + s + "': expected [ipv6]:port");
        }
        host = s.substring(1, close);
        port = s.substring(close + 2);
      } else {
        int colon = s.lastIndexOf(':');
        if (colon <= 0 || s.indexOf(':') != colon) {
          throw new IllegalArgumentException("invalid endpoint '" + s + "': expected host:port");
        }
        host = s.substring(0, colon);
        port = s.substring(colon + 1);
      }
      int p;
      try {
        p = Integer.parseInt(port);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("invalid endpoint '" + s + "': port is not a number");
      }
      if (p < 1 || p > 65535) {
        throw new IllegalArgumentException("invalid endpoint '" + s + "': port out of range");
      }
      out.add(Endpoint.ofStatic(host, p));
    }
    return out;
  }
}
