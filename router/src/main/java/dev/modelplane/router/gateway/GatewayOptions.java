package dev.modelplane.router.gateway;

import dev.modelplane.router.request.RequestLimits;
import java.time.Duration;

/**
 * Settings of the standalone gateway.
 *
 * @param host bind address
 * @param port listen port (0 picks a free one)
 * @param maxBodyBytes request bodies above this get 413
 * @param maxAttempts endpoints tried per request when connecting fails before the first response byte
 * @param connectTimeout upstream connect timeout
 * @param unreachableCooldown how long an endpoint that refused a connection is left out
 * @param maxConnectionsPerEndpoint upstream HTTP/1.1 connections per endpoint
 * @param eventLoops server instances (one per event loop)
 * @param accessLog whether to write access log lines
 * @param limits timeouts and size limits against stalled upstreams and slow or hostile clients
 */
public record GatewayOptions(String host, int port, long maxBodyBytes, int maxAttempts, Duration connectTimeout,
    Duration unreachableCooldown, int maxConnectionsPerEndpoint, int eventLoops, boolean accessLog, Limits limits) {

  /**
   * Timeouts and size limits. A zero duration turns that timeout off.
   *
   * @param upstreamResponseTimeout from sending a request upstream to the first response body byte (the head is held
   *     until then): a non-streamed generation answers only at its end, so this bounds the longest one
   * @param upstreamIdleTimeout the longest pause between two response body chunks once the first was relayed
   * @param clientIdleTimeout a keep-alive client connection with no request in progress is closed after this; also
   *     how long a client may leave a streamed response unread (its socket not writable) before it is dropped
   * @param clientRequestTimeout the request body must have arrived within this of the request head (408 after)
   * @param maxHeaderBytes the request head's headers, in bytes (431 above)
   * @param maxInitialLineBytes the request line, in bytes (414 above)
   * @param maxHttp2Streams concurrent streams per HTTP/2 connection (advertised in SETTINGS)
   */
  public record Limits(Duration upstreamResponseTimeout, Duration upstreamIdleTimeout, Duration clientIdleTimeout,
      Duration clientRequestTimeout, int maxHeaderBytes, int maxInitialLineBytes, int maxHttp2Streams) {

    public static Limits defaults() {
      return new Limits(Duration.ofMinutes(10), Duration.ofMinutes(2), Duration.ofSeconds(60), Duration.ofSeconds(60),
          64 * 1024, 16 * 1024, 100);
    }

    public Limits withUpstream(Duration response, Duration idle) {
      return new Limits(response, idle, clientIdleTimeout, clientRequestTimeout, maxHeaderBytes, maxInitialLineBytes,
          maxHttp2Streams);
    }

    public Limits withClient(Duration idle, Duration request) {
      return new Limits(upstreamResponseTimeout, upstreamIdleTimeout, idle, request, maxHeaderBytes,
          maxInitialLineBytes, maxHttp2Streams);
    }

    public Limits withMaxHeaderBytes(int bytes) {
      return new Limits(upstreamResponseTimeout, upstreamIdleTimeout, clientIdleTimeout, clientRequestTimeout, bytes,
          maxInitialLineBytes, maxHttp2Streams);
    }
  }

  public static GatewayOptions defaults() {
    return new GatewayOptions("127.0.0.1", 8080, RequestLimits.DEFAULT_MAX_BODY_BYTES, 3, Duration.ofSeconds(2), Duration.ofSeconds(2),
        4096, Math.max(1, Runtime.getRuntime().availableProcessors()), true, Limits.defaults());
  }

  public GatewayOptions withPort(int p) {
    return new GatewayOptions(host, p, maxBodyBytes, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, eventLoops, accessLog, limits);
  }

  public GatewayOptions withMaxBodyBytes(long max) {
    return new GatewayOptions(host, port, max, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, eventLoops, accessLog, limits);
  }

  public GatewayOptions withAccessLog(boolean on) {
    return new GatewayOptions(host, port, maxBodyBytes, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, eventLoops, on, limits);
  }

  public GatewayOptions withEventLoops(int n) {
    return new GatewayOptions(host, port, maxBodyBytes, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, n, accessLog, limits);
  }

  public GatewayOptions withLimits(Limits l) {
    return new GatewayOptions(host, port, maxBodyBytes, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, eventLoops, accessLog, l);
  }
}
