package dev.modelplane.operator.modelsource;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;

/**
 * The operator's HTTP/1.1 GET for model inspection, under an {@link InspectionPolicy}: every host is resolved once,
 * each of its addresses is checked, and the connection goes to the checked address (no second lookup a DNS answer
 * could change in between), with TLS verifying the certificate against the host name. Redirects are followed here,
 * at most {@link #MAX_REDIRECTS}, each checked like the first URL, never from https to plain http, and without
 * credential headers once they leave the first host.
 */
public final class InspectionHttp {
  /** Most redirects followed for one request. */
  public static final int MAX_REDIRECTS = 5;
  private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);
  private static final int MAX_HEADER_BYTES = 64 * 1024;

  /** Resolves a host name to its addresses (the system resolver, or a fixed table in tests). */
  @FunctionalInterface
  public interface Resolver {
    InetAddress[] resolve(String host) throws UnknownHostException;
  }

  /**
   * An answer whose body is still to read.
   *
   * @param status HTTP status code
   * @param headers header values by lower-case name (the last one of a repeated header)
   * @param body the body, ending where the answer ends
   */
  public record Response(int status, Map<String, String> headers, InputStream body) implements AutoCloseable {
    public String header(String name) {
      return headers.get(name.toLowerCase(Locale.ROOT));
    }

    @Override
    public void close() throws IOException {
      body.close();
    }
  }

  private final InspectionPolicy policy;
  private final Duration timeout;
  private final Resolver resolver;
  private final SSLSocketFactory tls;

  public InspectionHttp(InspectionPolicy policy, Duration timeout) {
    this(policy, timeout, InetAddress::getAllByName, (SSLSocketFactory) SSLSocketFactory.getDefault());
  }

  public InspectionHttp(InspectionPolicy policy, Duration timeout, Resolver resolver, SSLSocketFactory tls) {
    this.policy = policy;
    this.timeout = timeout;
    this.resolver = resolver;
    this.tls = tls;
  }

  /**
   * GETs {@code uri} with {@code headers}, following allowed redirects; returns the first answer that is not one.
   *
   * @throws InspectionRefusedException when the policy refuses the URL, an address or a redirect
   * @throws IOException when the server cannot be reached or answers something that is not HTTP
   */
  public Response get(URI uri, Map<String, String> headers) throws IOException {
    policy.checkUrl(uri);
    URI current = uri;
    for (int hop = 0; ; hop++) {
      Response response = exchange(current, InspectionPolicy.host(current).equals(InspectionPolicy.host(uri))
          ? headers : withoutCredentials(headers));
      if (!REDIRECTS.contains(response.status())) {
        return response;
      }
      response.close();
      String location = response.header("Location");
      String host = InspectionPolicy.host(current);
      if (location == null) {
        throw new IOException(host + " answered HTTP " + response.status() + " without a Location header");
      }
      if (hop >= MAX_REDIRECTS) {
        throw new InspectionRefusedException(InspectionPolicy.host(uri), "more than " + MAX_REDIRECTS
            + " redirects", null);
      }
      URI next;
      try {
        next = current.resolve(location.strip());
      } catch (IllegalArgumentException e) {
        throw new IOException(host + " redirected to a malformed location");
      }
      policy.checkRedirect(uri, current, next);
      current = next;
    }
  }

  /** {@code headers} without those that carry credentials, for a redirect to another host. */
  private static Map<String, String> withoutCredentials(Map<String, String> headers) {
    Map<String, String> kept = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    kept.putAll(headers);
    for (String name : List.of("Authorization", "Cookie", "Proxy-Authorization")) {
      kept.remove(name);
    }
    return kept;
  }

  /**
   * GETs {@code uri} with {@code headers} once: a redirect is returned as it is, never followed.
   *
   * @throws InspectionRefusedException when the policy refuses the URL or an address of its host
   * @throws IOException when the server cannot be reached or answers something that is not HTTP
   */
  public Response getOnce(URI uri, Map<String, String> headers) throws IOException {
    policy.checkUrl(uri);
    return exchange(uri, headers);
  }

  private Response exchange(URI uri, Map<String, String> headers) throws IOException {
    String host = InspectionPolicy.host(uri);
    boolean https = "https".equalsIgnoreCase(uri.getScheme());
    int port = uri.getPort() >= 0 ? uri.getPort() : https ? 443 : 80;
    InetAddress[] addresses;
    try {
      addresses = literal(host) ? new InetAddress[] {Cidr.parse(host).network()} : resolver.resolve(host);
    } catch (UnknownHostException | IllegalArgumentException e) {
      throw new IOException("cannot resolve host " + host);
    }
    InetAddress address = policy.checkAddresses(host, addresses);
    int millis = (int) Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis()));
    Socket socket = new Socket();
    try {
      socket.connect(new InetSocketAddress(address, port), millis);
      socket.setSoTimeout(millis);
      if (https) {
        socket = secure(socket, host, port);
      }
      OutputStream out = socket.getOutputStream();
      out.write(request(uri, host, port, https, headers).getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      Response response = read(new BufferedInputStream(socket.getInputStream()), host);
      return new Response(response.status(), response.headers(), new ResponseBody(socket, response.body()));
    } catch (IOException | RuntimeException e) {
      socket.close();
      if (e instanceof java.net.SocketTimeoutException) {
        throw new IOException(host + " did not answer within " + timeout.toMillis() + "ms");
      }
      if (e instanceof java.net.ConnectException) {
        throw new IOException("cannot connect to " + host + ":" + port + ": connection refused");
      }
      throw e;
    }
  }

  /** An IP address written out (IPv4 dotted quad or IPv6), which is never looked up. */
  private static boolean literal(String host) {
    return host.contains(":") || host.matches("[0-9.]+");
  }

  private Socket secure(Socket plain, String host, int port) throws IOException {
    SSLSocket ssl = (SSLSocket) tls.createSocket(plain, host, port, true);
    SSLParameters parameters = ssl.getSSLParameters();
    parameters.setEndpointIdentificationAlgorithm("HTTPS");
    if (!literal(host)) {
      parameters.setServerNames(List.of(new SNIHostName(host)));
    }
    ssl.setSSLParameters(parameters);
    ssl.startHandshake();
    return ssl;
  }

  private static String request(URI uri, String host, int port, boolean https, Map<String, String> headers) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String target = path + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery());
    String hostHeader = (host.contains(":") ? "[" + host + "]" : host)
        + (port == (https ? 443 : 80) ? "" : ":" + port);
    StringBuilder r = new StringBuilder("GET ").append(target).append(" HTTP/1.1\r\nHost: ").append(hostHeader)
        .append("\r\nUser-Agent: modelplane-operator\r\nAccept-Encoding: identity\r\nConnection: close\r\n");
    headers.forEach((name, value) -> {
      if ((name + value).chars().anyMatch(c -> c == '\r' || c == '\n')) {
        throw new IllegalArgumentException("header " + name + " holds a line break");
      }
      r.append(name).append(": ").append(value).append("\r\n");
    });
    return r.append("\r\n").toString();
  }

  /**
   * The answer at the start of {@code in}: status line and headers read, the body decoded as its headers say (chunked,
   * of a Content-Length, else up to the end of {@code in}) as it is read.
   *
   * @throws IOException naming {@code host} when the answer is not HTTP/1.x or breaks a limit
   */
  static Response read(InputStream in, String host) throws IOException {
    int status = status(readLine(in, host), host);
    Map<String, String> headers = readHeaders(in, host);
    return new Response(status, Map.copyOf(headers), body(in, headers, host));
  }

  private static int status(String line, String host) throws IOException {
    String[] parts = line.split(" ", 3);
    if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
      throw new IOException(host + " did not answer HTTP/1.x");
    }
    try {
      return Integer.parseInt(parts[1]);
    } catch (NumberFormatException e) {
      throw new IOException(host + " answered a malformed status line");
    }
  }

  private static Map<String, String> readHeaders(InputStream in, String host) throws IOException {
    Map<String, String> headers = new TreeMap<>();
    int total = 0;
    for (String line = readLine(in, host); !line.isEmpty(); line = readLine(in, host)) {
      total += line.length();
      if (total > MAX_HEADER_BYTES) {
        throw new IOException(host + " sent more than " + MAX_HEADER_BYTES + " bytes of headers");
      }
      int colon = line.indexOf(':');
      if (colon > 0) {
        headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
      }
    }
    return headers;
  }

  private static InputStream body(InputStream in, Map<String, String> headers, String host) throws IOException {
    String encoding = headers.getOrDefault("transfer-encoding", "");
    if (encoding.toLowerCase(Locale.ROOT).contains("chunked")) {
      return new ChunkedBody(in, host);
    }
    String length = headers.get("content-length");
    if (length != null) {
      try {
        return new LimitedBody(in, Long.parseLong(length.strip()));
      } catch (NumberFormatException e) {
        throw new IOException(host + " sent a malformed Content-Length");
      }
    }
    return in;
  }

  /** One CRLF- (or LF-) terminated line as ISO-8859-1, at most {@link #MAX_HEADER_BYTES} long. */
  static String readLine(InputStream in, String host) throws IOException {
    ByteArrayOutputStream line = new ByteArrayOutputStream();
    for (int b = in.read(); b != '\n'; b = in.read()) {
      if (b < 0) {
        throw new IOException(host + " closed the connection in the middle of an answer");
      }
      if (line.size() >= MAX_HEADER_BYTES) {
        throw new IOException(host + " sent a line longer than " + MAX_HEADER_BYTES + " bytes");
      }
      line.write(b);
    }
    String s = line.toString(StandardCharsets.ISO_8859_1);
    return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
  }

  /** A body that also closes its connection. */
  private static final class ResponseBody extends java.io.FilterInputStream {
    private final Socket socket;

    ResponseBody(Socket socket, InputStream body) {
      super(body);
      this.socket = socket;
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }
}
