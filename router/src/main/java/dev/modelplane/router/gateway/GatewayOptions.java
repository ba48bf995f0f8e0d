package dev.modelplane.router.gateway;

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
 */
public record GatewayOptions(String host, int port, long maxBodyBytes, int maxAttempts, Duration connectTimeout,
    Duration unreachableCooldown, int maxConnectionsPerEndpoint, int eventLoops, boolean accessLog) {

  public static GatewayOptions defaults() {
    return new GatewayOptions("127.0.0.1", 8080, 32L * 1024 * 1024, 3, Duration.ofSeconds(2), Duration.ofSeconds(2),
        4096, Math.max(1, Runtime.getRuntime().availableProcessors()), true);
  }

  public GatewayOptions withPort(int p) {
    return new GatewayOptions(host, p, maxBodyBytes, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, eventLoops, accessLog);
  }

  public GatewayOptions withMaxBodyBytes(long max) {
    return new GatewayOptions(host, port, max, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, eventLoops, accessLog);
  }

  public GatewayOptions withAccessLog(boolean on) {
    return new GatewayOptions(host, port, maxBodyBytes, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, eventLoops, on);
  }

  public GatewayOptions withEventLoops(int n) {
    return new GatewayOptions(host, port, maxBodyBytes, maxAttempts, connectTimeout, unreachableCooldown,
        maxConnectionsPerEndpoint, n, accessLog);
  }
}
