package dev.modelplane.operator.modelsource;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Where the operator may read remote model files for inspection (size, ETag, GGUF header), so that a Model's
 * {@code spec.source} cannot make the operator's pod reach internal services or the cloud metadata endpoint.
 *
 * <p>Only https unless {@code allowHttp}; only {@code allowedHosts} when that list is not empty (an entry is a host
 * name or {@code *.domain} for its subdomains); every address a host resolves to must be public: loopback, private,
 * carrier-grade NAT, link-local (the metadata endpoint 169.254.169.254), unspecified, multicast and reserved addresses
 * are refused unless they lie in one of {@code allowedCidrs}. A redirect may go to the same host, a host on
 * {@code allowedHosts} or one on {@code redirectHosts} (by default the Hugging Face CDN, where the hub sends
 * downloads), never from https to plain http, and is checked again.
 *
 * @param allowHttp plain http sources may be inspected
 * @param allowedHosts the only hosts inspected when not empty
 * @param redirectHosts hosts redirects may lead to besides the same host and {@code allowedHosts}
 * @param allowedCidrs address ranges allowed although not public
 */
public record InspectionPolicy(boolean allowHttp, List<String> allowedHosts, List<String> redirectHosts,
    List<Cidr> allowedCidrs) {
  public static final String FLAG_ALLOW_HTTP = "--model-inspection-allow-http";
  public static final String FLAG_ALLOWED_HOSTS = "--model-inspection-allowed-hosts";
  public static final String FLAG_REDIRECT_HOSTS = "--model-inspection-redirect-hosts";
  public static final String FLAG_ALLOWED_CIDRS = "--model-inspection-allowed-cidrs";
  /** Where the Hugging Face hub redirects file downloads. */
  public static final List<String> DEFAULT_REDIRECT_HOSTS = List.of("*.hf.co", "*.huggingface.co");

  private record Range(Cidr cidr, String what) {
    Range(String cidr, String what) {
      this(Cidr.parse(cidr), what);
    }
  }

  private static final List<Range> NOT_PUBLIC = List.of(
      new Range("0.0.0.0/8", "an unspecified address"),
      new Range("127.0.0.0/8", "a loopback address"),
      new Range("10.0.0.0/8", "a private address"),
      new Range("172.16.0.0/12", "a private address"),
      new Range("192.168.0.0/16", "a private address"),
      new Range("100.64.0.0/10", "a carrier-grade NAT address"),
      new Range("169.254.0.0/16", "a link-local address (cloud metadata lives at 169.254.169.254)"),
      new Range("224.0.0.0/4", "a multicast address"),
      new Range("240.0.0.0/4", "a reserved address"),
      new Range("192.0.0.0/24", "a special-purpose address"),
      new Range("198.18.0.0/15", "a benchmarking address"),
      new Range("::/128", "an unspecified address"),
      new Range("::1/128", "a loopback address"),
      new Range("fc00::/7", "a private (unique local) address"),
      new Range("fe80::/10", "a link-local address"),
      new Range("ff00::/8", "a multicast address"),
      new Range("64:ff9b:1::/48", "a local-use NAT64 address"),
      new Range("2001::/32", "a Teredo tunnel address"));

  public InspectionPolicy {
    allowedHosts = normalized(allowedHosts, FLAG_ALLOWED_HOSTS);
    redirectHosts = normalized(redirectHosts, FLAG_REDIRECT_HOSTS);
    allowedCidrs = List.copyOf(Objects.requireNonNullElse(allowedCidrs, List.of()));
  }

  /** https only, any public host, redirects to the same host or the Hugging Face CDN. */
  public static InspectionPolicy defaults() {
    return new InspectionPolicy(false, List.of(), DEFAULT_REDIRECT_HOSTS, List.of());
  }

  public InspectionPolicy withAllowHttp(boolean allow) {
    return new InspectionPolicy(allow, allowedHosts, redirectHosts, allowedCidrs);
  }

  public InspectionPolicy withAllowedHosts(List<String> hosts) {
    return new InspectionPolicy(allowHttp, hosts, redirectHosts, allowedCidrs);
  }

  public InspectionPolicy withRedirectHosts(List<String> hosts) {
    return new InspectionPolicy(allowHttp, allowedHosts, hosts, allowedCidrs);
  }

  /** These ranges given as text ({@code 10.0.0.0/8}); a malformed one is an IllegalArgumentException naming it. */
  public InspectionPolicy withAllowedCidrs(List<String> cidrs) {
    return new InspectionPolicy(allowHttp, allowedHosts, redirectHosts,
        cidrs.stream().map(c -> {
          try {
            return Cidr.parse(c);
          } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(FLAG_ALLOWED_CIDRS + ": " + e.getMessage());
          }
        }).toList());
  }

  /** Checks the scheme and host of a URL the operator is about to read; the address is checked on connecting. */
  void checkUrl(URI uri) throws InspectionRefusedException {
    String host = host(uri);
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (host.isEmpty()) {
      throw new InspectionRefusedException("(no host)", "the URL names no host", null);
    }
    if (scheme.equals("http") && !allowHttp) {
      throw new InspectionRefusedException(host, "plain http is not allowed, only https", FLAG_ALLOW_HTTP);
    }
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new InspectionRefusedException(host, "scheme '" + scheme + "' is not http(s)", null);
    }
    if (!allowedHosts.isEmpty() && !matches(allowedHosts, host)) {
      throw new InspectionRefusedException(host, "the host is not on the allowed hosts " + allowedHosts,
          FLAG_ALLOWED_HOSTS);
    }
  }

  /**
   * Checks the redirect of a chain that started at {@code origin} from {@code current} to {@code next}: never from
   * https to plain http, then {@link #checkRedirect(URI, URI)}.
   */
  void checkRedirect(URI origin, URI current, URI next) throws InspectionRefusedException {
    if ("https".equalsIgnoreCase(current.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
      throw new InspectionRefusedException(host(next), "redirected there from https on " + host(current)
          + " to plain http", null);
    }
    checkRedirect(origin, next);
  }

  /**
   * Checks a redirect from a chain that started at {@code origin} to {@code next}, then {@link #checkUrl}: never from
   * https to plain http (even where plain http is allowed), and only to the same host or an allowed one.
   */
  void checkRedirect(URI origin, URI next) throws InspectionRefusedException {
    String from = host(origin);
    String to = host(next);
    if ("https".equalsIgnoreCase(origin.getScheme()) && !"https".equalsIgnoreCase(next.getScheme())) {
      throw new InspectionRefusedException(to, "redirected there from https on " + from + " to plain http", null);
    }
    if (!to.equals(from) && !matches(allowedHosts, to) && !matches(redirectHosts, to)) {
      throw new InspectionRefusedException(to, "redirected there from " + from + ", another host",
          FLAG_REDIRECT_HOSTS);
    }
    checkUrl(next);
  }

  /**
   * Checks every address {@code host} resolved to and returns the one to connect to.
   *
   * @throws InspectionRefusedException when any address is not public and not in {@link #allowedCidrs}
   */
  InetAddress checkAddresses(String host, InetAddress[] addresses) throws InspectionRefusedException {
    if (addresses.length == 0) {
      throw new InspectionRefusedException(host, "the host resolved to no address", null);
    }
    for (InetAddress address : addresses) {
      String why = notPublic(address);
      if (why != null && allowedCidrs.stream().noneMatch(c -> c.contains(address))) {
        throw new InspectionRefusedException(host, "it resolves to " + address.getHostAddress() + ", " + why,
            FLAG_ALLOWED_CIDRS);
      }
    }
    return addresses[0];
  }

  /** Why {@code address} is not a public address, or null when it is. */
  static String notPublic(InetAddress address) {
    InetAddress embedded = embeddedIpv4(address);
    if (embedded != null) {
      String why = notPublic(embedded);
      return why == null ? null : why + " (embedded in " + address.getHostAddress() + ")";
    }
    for (Range r : NOT_PUBLIC) {
      if (r.cidr().contains(address)) {
        return r.what();
      }
    }
    return null;
  }

  /** The IPv4 address inside an IPv4-compatible, NAT64 (64:ff9b::/96) or 6to4 (2002::/16) IPv6 address. */
  private static InetAddress embeddedIpv4(InetAddress address) {
    if (!(address instanceof Inet6Address v6)) {
      return null;
    }
    byte[] b = v6.getAddress();
    int from = -1;
    if (v6.isIPv4CompatibleAddress() && !address.isAnyLocalAddress() && !address.isLoopbackAddress()) {
      from = 12;
    } else if (b[0] == 0x00 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b && allZero(b, 4, 12)) {
      from = 12;
    } else if (b[0] == 0x20 && b[1] == 0x02) {
      from = 2;
    }
    if (from < 0) {
      return null;
    }
    try {
      return InetAddress.getByAddress(java.util.Arrays.copyOfRange(b, from, from + 4));
    } catch (UnknownHostException e) {
      throw new IllegalStateException("four bytes are always an IPv4 address", e);
    }
  }

  private static boolean allZero(byte[] b, int from, int to) {
    for (int i = from; i < to; i++) {
      if (b[i] != 0) {
        return false;
      }
    }
    return true;
  }

  /** The URI's host in lower case, without the brackets of an IPv6 literal; empty when it has none. */
  static String host(URI uri) {
    String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  private static boolean matches(List<String> patterns, String host) {
    for (String p : patterns) {
      if (p.startsWith("*.") ? host.endsWith(p.substring(1)) : host.equals(p)) {
        return true;
      }
    }
    return false;
  }

  private static List<String> normalized(List<String> hosts, String flag) {
    List<String> out = new java.util.ArrayList<>();
    for (String h : Objects.requireNonNullElse(hosts, List.<String>of())) {
      String t = h == null ? "" : h.strip().toLowerCase(Locale.ROOT);
      if (t.isEmpty()) {
        continue;
      }
      String name = t.startsWith("*.") ? t.substring(2) : t;
      if (name.isEmpty() || !name.matches("[a-z0-9.:\\-\\[\\]]+") || name.contains("*")) {
        throw new IllegalArgumentException(flag + ": '" + h + "' is not a host name or *.domain");
      }
      out.add(t.startsWith("[") && t.endsWith("]") ? t.substring(1, t.length() - 1) : t);
    }
    return List.copyOf(out);
  }
}
