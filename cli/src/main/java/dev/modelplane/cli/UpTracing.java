package dev.modelplane.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code up --tracing-endpoint URL}: the OTLP/HTTP collector the router ({@code --tracing}), the operator and the dev
 * cluster's simulators export to, every span sampled. The dev cluster hands its environment to the simulators it
 * starts; a cluster or platform already running keeps what it was started with, which {@link #noteReused} says.
 */
final class UpTracing {
  /** Where the state directory records the endpoint a process was started with. */
  private static final String CLUSTER_FILE = "dev-cluster.tracing";
  private static final String PLATFORM_FILE = "platform.tracing";

  private final String endpoint;

  private UpTracing(String endpoint) {
    this.endpoint = endpoint;
  }

  /** {@code endpoint} as given ({@code null}: tracing off). */
  static UpTracing of(String endpoint) {
    return new UpTracing(endpoint == null || endpoint.isBlank() ? null : endpoint.trim());
  }

  boolean on() {
    return endpoint != null;
  }

  /** The environment of a process exporting to the endpoint as {@code service}; empty when off. */
  Map<String, String> env(String service) {
    if (!on()) {
      return Map.of();
    }
    Map<String, String> env = new LinkedHashMap<>();
    env.put("OTEL_EXPORTER_OTLP_ENDPOINT", endpoint);
    env.put("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", endpoint.replaceAll("/+$", "") + "/v1/traces");
    // The URL is an OTLP/HTTP one: a grpc protocol inherited from the shell must not send gRPC to it.
    env.put("OTEL_EXPORTER_OTLP_PROTOCOL", "http/protobuf");
    env.put("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf");
    env.put("OTEL_TRACES_SAMPLER", "parentbased_always_on");
    if (service != null) {
      env.put("OTEL_SERVICE_NAME", service);
    }
    return env;
  }

  /** The router's extra flags. */
  List<String> routerArgs() {
    return on() ? List.of("--tracing") : List.of();
  }

  /** Records the endpoint a newly started dev cluster ({@code cluster}) or platform got. */
  void recordStarted(Path dir, boolean cluster) throws IOException {
    Path file = dir.resolve(cluster ? CLUSTER_FILE : PLATFORM_FILE);
    if (on()) {
      Files.writeString(file, endpoint);
    } else {
      Files.deleteIfExists(file);
    }
  }

  /** Says so when a reused cluster or platform exports elsewhere (or nowhere) than asked. */
  void noteReused(Path dir, boolean cluster, PrintWriter out) throws IOException {
    Path file = dir.resolve(cluster ? CLUSTER_FILE : PLATFORM_FILE);
    String had = Files.exists(file) ? Files.readString(file).trim() : null;
    if (on() && !endpoint.equals(had)) {
      out.println("  note: the running " + (cluster ? "dev cluster's simulators were" : "operator and router were")
          + " started " + (had == null ? "without tracing" : "with --tracing-endpoint " + had)
          + "; run ./modelplane down first to trace to " + endpoint);
    }
  }
}
