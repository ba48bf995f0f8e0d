package dev.modelplane.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Jaeger, the trace backend, on free 127.0.0.1 ports: an OTLP receiver (gRPC and HTTP) whose spans go to an in-memory
 * store, and the query API traces are read back from. The binary is built by {@code hack/jaeger/build.sh}. {@link #close()} stops only the process this class started, by its PID.
 */
public final class JaegerServer implements AutoCloseable {
  private static final Duration STARTUP = Duration.ofSeconds(60);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final ServerProcess process;
  private final Ports ports;

  /** The ports one server listens on, all on 127.0.0.1. */
  private record Ports(int otlpGrpc, int otlpHttp, int query, int queryGrpc, int health) {
    static Ports pick() throws IOException {
      return new Ports(FreePorts.pick(), FreePorts.pick(), FreePorts.pick(), FreePorts.pick(), FreePorts.pick());
    }
  }

  private JaegerServer(ServerProcess process, Ports ports) {
    this.process = process;
    this.ports = ports;
  }

  /**
   * Starts a server keeping its config and log in {@code dir}. The binary is the {@link PeerBinary} {@code jaeger}:
   * {@code $MODELPLANE_JAEGER_BIN}, else the background build {@code hack/test} starts; without it the test is
   * skipped, or fails under CI with the reason.
   */
  public static JaegerServer startOrSkip(Path dir) throws IOException, InterruptedException {
    Path bin = PeerBinary.require("jaeger", "MODELPLANE_JAEGER_BIN");
    IOException last = null;
    for (int tries = 0; tries < 3; tries++) {
      try {
        return start(bin, Files.createDirectories(dir.resolve("jaeger-" + tries)));
      } catch (IOException e) {
        last = e; // most likely a free port was taken between probe and bind; try others
      }
    }
    throw last;
  }

  private static JaegerServer start(Path binary, Path dir) throws IOException {
    Ports ports = Ports.pick();
    Path config = Files.writeString(dir.resolve("jaeger.yaml"), config(ports));
    ServerProcess process = ServerProcess.start(new ProcessBuilder(binary.toString(), "--config", "file:" + config),
        dir.resolve("jaeger.log"));
    JaegerServer server = new JaegerServer(process, ports);
    try {
      process.awaitAnswer("Jaeger", ports.query(), STARTUP,
          () -> server.status("/api/services") == 200 && ServerProcess.answersHttp(ports.otlpHttp(), "/"));
    } catch (IOException e) {
      server.close();
      throw e;
    }
    return server;
  }

  /**
   * All-in-one with memory storage: OTLP in, the query API out, a health check; nothing else listens (no Jaeger or
   * Zipkin receivers, no internal metrics port), and Jaeger does not trace its own queries.
   */
  static String config(Ports p) {
    return """
        service:
          extensions: [jaeger_storage, jaeger_query, healthcheckv2]
          pipelines:
            traces:
              receivers: [otlp]
              processors: [batch]
              exporters: [jaeger_storage_exporter]
          telemetry:
            metrics:
              level: none
            logs:
              level: warn
        extensions:
          healthcheckv2:
            use_v2: true
            http:
              endpoint: 127.0.0.1:%d
          jaeger_query:
            enable_tracing: false
            storage:
              traces: memstore
            http:
              endpoint: 127.0.0.1:%d
            grpc:
              endpoint: 127.0.0.1:%d
          jaeger_storage:
            backends:
              memstore:
                memory:
                  max_traces: 100000
        receivers:
          otlp:
            protocols:
              grpc:
                endpoint: 127.0.0.1:%d
              http:
                endpoint: 127.0.0.1:%d
        processors:
          batch:
            timeout: 100ms
        exporters:
          jaeger_storage_exporter:
            trace_storage: memstore
        """.formatted(p.health(), p.query(), p.queryGrpc(), p.otlpGrpc(), p.otlpHttp());
  }

  /** The OTLP/HTTP base URL, what {@code OTEL_EXPORTER_OTLP_ENDPOINT} names with protocol {@code http/protobuf}. */
  public URI otlpHttpEndpoint() {
    return URI.create("http://127.0.0.1:" + ports.otlpHttp());
  }

  /** The OTLP/gRPC URL, what {@code OTEL_EXPORTER_OTLP_ENDPOINT} names with protocol {@code grpc}. */
  public URI otlpGrpcEndpoint() {
    return URI.create("http://127.0.0.1:" + ports.otlpGrpc());
  }

  /** The query API and UI, {@code http://127.0.0.1:<port>}. */
  public URI queryEndpoint() {
    return URI.create("http://127.0.0.1:" + ports.query());
  }

  /** The process id, to show the test stops only its own process. */
  public long pid() {
    return process.pid();
  }

  /** The JSON of {@code /api/services}: the names of the services that have sent spans. */
  public String services() throws IOException {
    return get("/api/services");
  }

  /**
   * The JSON of {@code /api/traces} for {@code service}: the latest {@code limit} traces that have a span of that
   * service, each with all its spans (from every service) and their parent references.
   */
  public String traces(String service, int limit) throws IOException {
    return get("/api/traces?service=" + URLEncoder.encode(service, StandardCharsets.UTF_8) + "&limit=" + limit
        + "&lookback=1h");
  }

  /** The JSON of {@code /api/traces/<id>}: one trace with all its spans. */
  public String trace(String traceId) throws IOException {
    return get("/api/traces/" + URLEncoder.encode(traceId, StandardCharsets.UTF_8));
  }

  private String get(String path) throws IOException {
    try {
      HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(URI.create(queryEndpoint() + path))
          .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IOException("GET " + path + " answered " + response.statusCode() + ": " + response.body());
      }
      return response.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private int status(String path) {
    try {
      return HTTP.send(HttpRequest.newBuilder(URI.create(queryEndpoint() + path)).timeout(Duration.ofSeconds(2))
          .build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The end of the server's log, for assertion messages. */
  public String logTail() {
    return process.logTail();
  }

  @Override
  public void close() {
    process.stop();
  }
}
