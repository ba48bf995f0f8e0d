package dev.modelplane.common.net;

/**
 * A host and a port as addresses are written on command lines and in protocols: {@code 127.0.0.1:8000},
 * {@code [::1]:8000}, {@code model-server.ns:8000}. Parses like Go's {@code net.SplitHostPort} (IPv6 literals in
 * brackets) and prints like {@code net.JoinHostPort}; a host alone is read when the caller has a default port.
 *
 * @param host a host name or IP address, without brackets
 * @param port 0-65535 (0 only as a caller's "any port" default; parsed ports are 1-65535)
 */
public record HostPort(String host, int port) {
  private static final String EXAMPLES = "use host:port, e.g. 127.0.0.1:8000 or [::1]:8000";

  /** Checks the parts. */
  public HostPort {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("missing host");
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is out of range (1-65535)");
    }
  }

  /**
   * Parses {@code host:port} or {@code [ipv6]:port}; the port is required.
   *
   * @throws IllegalArgumentException naming the text and showing an example
   */
  public static HostPort parse(String text) {
    return parse(text, -1);
  }

  /**
   * Parses {@code host:port}, {@code [ipv6]:port}, or a host alone ({@code localhost}, {@code 10.0.0.5},
   * {@code [::1]}, {@code ::1}), which gets {@code defaultPort}.
   *
   * @throws IllegalArgumentException naming the text and showing an example
   */
  public static HostPort parse(String text, int defaultPort) {
    String s = text == null ? "" : text.strip();
    String host;
    String port = null;
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0) {
        throw invalid(text, "missing ']'");
      }
      host = s.substring(1, close);
      String rest = s.substring(close + 1);
      if (!rest.isEmpty()) {
        if (rest.charAt(0) != ':') {
          throw invalid(text, "unexpected text after ']'");
        }
        port = rest.substring(1);
      }
    } else {
      int colon = s.lastIndexOf(':');
      if (colon >= 0 && s.indexOf(':') != colon) {
        if (defaultPort < 0) {
          throw invalid(text, "an IPv6 address needs brackets");
        }
        host = s; // a bare IPv6 address
      } else if (colon >= 0) {
        host = s.substring(0, colon);
        port = s.substring(colon + 1);
      } else {
        host = s;
      }
    }
    if (host.isEmpty()) {
      throw invalid(text, "missing host");
    }
    if (port == null) {
      if (defaultPort < 0) {
        throw invalid(text, "missing port");
      }
      return new HostPort(host, defaultPort);
    }
    return new HostPort(host, parsePort(text, port));
  }

  /** Joins like Go's {@code net.JoinHostPort}: brackets around an IPv6 address. */
  public static String join(String host, int port) {
    return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
  }

  /** {@code host:port}, with brackets around an IPv6 address. */
  @Override
  public String toString() {
    return join(host, port);
  }

  private static int parsePort(String text, String port) {
    if (port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw invalid(text, port.isEmpty() ? "missing port" : "port \"" + port + "\" is not a number");
    }
    int p = Integer.parseInt(port);
    if (p < 1 || p > 65535) {
      throw invalid(text, "port " + p + " is out of range (1-65535)");
    }
    return p;
  }

  private static IllegalArgumentException invalid(String text, String why) {
    return new IllegalArgumentException("invalid address \"" + text + "\": " + why + "; " + EXAMPLES);
  }
}
