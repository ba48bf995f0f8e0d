package dev.modelplane.operator.app;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;

/**
 * The operator's HTTP endpoints: {@code /healthz} (the process is alive and its controllers started or waiting for
 * leadership), {@code /readyz} (controllers running with healthy informers) and {@code /metrics} (Prometheus text).
 */
public final class HealthServer implements AutoCloseable {
  private final HttpServer server;

  public HealthServer(InetSocketAddress address, BooleanSupplier alive, BooleanSupplier ready,
      PrometheusMeterRegistry registry) throws IOException {
    server = HttpServer.create(address, 16);
    server.createContext("/healthz", exchange -> respond(exchange, alive.getAsBoolean()));
    server.createContext("/readyz", exchange -> respond(exchange, ready.getAsBoolean()));
    server.createContext("/metrics", exchange -> {
      try (exchange) {
        byte[] body = registry.scrape().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    });
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.start();
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  private static void respond(HttpExchange exchange, boolean ok) throws IOException {
    try (exchange) {
      byte[] body = (ok ? "ok\n" : "not ready\n").getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(ok ? 200 : 503, body.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
