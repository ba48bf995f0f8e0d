package dev.modelplane.cli;

import dev.modelplane.cli.devcluster.DevClusterProcess;
import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Option;

/**
 * The Prometheus server of {@code modelplane up --monitoring}: it scrapes the router, the operator and every live
 * model-server pod ({@link PrometheusConfig}), keeps its data in {@code <state-dir>/prometheus/}, listens on
 * 127.0.0.1 only, and is stopped by {@code modelplane down}. Its process is recorded in
 * {@code <state-dir>/monitoring.json}; a later {@code up} reuses it when it still runs on the port asked for, after
 * rewriting its configuration for the current router and operator ports.
 */
final class Monitoring {
  static final String FILE = "monitoring.json";
  static final String BIN_VARIABLE = "MODELPLANE_PROMETHEUS_BIN";
  static final String BUILD_SCRIPT = "hack/prometheus/build.sh";
  private static final Duration READY = Duration.ofSeconds(60);

  /** {@code up}'s monitoring options. */
  static final class Options {
    @Option(names = "--monitoring", description = "Also start a Prometheus server (on 127.0.0.1) scraping the router, "
        + "the operator and every model-server pod; its URL is printed. The binary is $" + BIN_VARIABLE
        + ", else built from its Go module by " + BUILD_SCRIPT + " (first run only).")
    boolean enabled;

    @Option(names = "--monitoring-port", defaultValue = "9091",
        description = "Prometheus port with --monitoring; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;
  }

  /**
   * What {@code up} started: the Prometheus process and its port.
   *
   * @param pid the Prometheus server's process
   * @param port its HTTP port on 127.0.0.1
   */
  record State(long pid, int port) {
    String url() {
      return "http://127.0.0.1:" + port;
    }
  }

  private Monitoring() {
  }

  /**
   * Starts Prometheus for the platform, or reuses the one running; prints a line either way.
   *
   * @return the running server, or empty (with the reason on {@code err}) when it could not start
   */
  static Optional<State> startOrReuse(Options options, Path dir, String kubeconfig, PlatformState platform,
      PrintWriter out, PrintWriter err) throws IOException, InterruptedException {
    Path data = Files.createDirectories(dir.resolve("prometheus"));
    Path config = data.resolve("prometheus.yml");
    Optional<Path> rules = PrometheusConfig.writeRules(data.resolve("rules.yml"));
    Files.writeString(config, new PrometheusConfig(Path.of(kubeconfig), platform.metricsPort(),
        platform.operatorPort(), rules).render());
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    Optional<State> running = read(dir).filter(s -> PlatformState.alive(s.pid()));
    if (running.isPresent() && (options.port == 0 || options.port == running.get().port())
        && post(http, running.get().url() + "/-/reload")) {
      out.println("  prometheus " + running.get().url() + " (pid " + running.get().pid()
          + ") already runs; configuration reloaded");
      return running;
    }
    running.ifPresent(s -> stopProcess(s.pid()));
    int port = options.port == 0 ? freePort() : options.port;
    if (!free(port)) {
      err.println("up: port " + port + " on 127.0.0.1 is in use; choose another with --monitoring-port (0 picks a "
          + "free one)");
      return Optional.empty();
    }
    Optional<Path> binary = binary(err);
    if (binary.isEmpty()) {
      return Optional.empty();
    }
    Path log = dir.resolve("prometheus.log");
    Process process = DevClusterProcess.startDetached(List.of(binary.get().toString(),
        "--config.file=" + config, "--storage.tsdb.path=" + data.resolve("data"),
        "--web.listen-address=127.0.0.1:" + port, "--web.enable-lifecycle", "--storage.tsdb.retention.time=7d"),
        log, Map.of());
    State state = new State(process.pid(), port);
    DevClusterCommand.JSON.writeValue(dir.resolve(FILE).toFile(), state);
    Instant deadline = Instant.now().plus(READY);
    while (!UpCommand.ok(http, state.url() + "/-/ready")) {
      if (!process.isAlive() || Instant.now().isAfter(deadline)) {
        err.println("up: Prometheus did not start on 127.0.0.1:" + port + "; see " + log);
        stopProcess(process.pid());
        Files.deleteIfExists(dir.resolve(FILE));
        return Optional.empty();
      }
      Thread.sleep(250);
    }
    out.println("  prometheus " + state.url() + " (pid " + process.pid() + ", log " + log + ")");
    return Optional.of(state);
  }

  /** The recorded server, whether or not it still runs. */
  static Optional<State> read(Path dir) {
    Path file = dir.resolve(FILE);
    try {
      return Files.exists(file) ? Optional.of(DevClusterCommand.JSON.readValue(file.toFile(), State.class))
          : Optional.empty();
    } catch (IOException e) {
      return Optional.empty();
    }
  }

  /** Stops the recorded server, if any; for {@code modelplane down}. */
  static void stop(Path dir, PrintWriter out) throws IOException {
    Optional<State> state = read(dir);
    if (state.isPresent()) {
      stopProcess(state.get().pid());
      Files.deleteIfExists(dir.resolve(FILE));
      out.println("modelplane prometheus stopped");
    }
  }

  private static void stopProcess(long pid) {
    ProcessHandle.of(pid).filter(ProcessHandle::isAlive).ifPresent(handle -> {
      handle.destroy();
      try {
        handle.onExit().get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        handle.destroyForcibly();
      }
    });
  }

  /** The Prometheus server: {@code $MODELPLANE_PROMETHEUS_BIN}, else what the build script prints (building once). */
  static Optional<Path> binary(PrintWriter err) throws IOException, InterruptedException {
    String configured = System.getProperty("modelplane.prometheus.bin", System.getenv(BIN_VARIABLE));
    if (configured != null && !configured.isBlank()) {
      if (!Files.isExecutable(Path.of(configured))) {
        err.println("up: " + BIN_VARIABLE + "=" + configured + " is not an executable file");
        return Optional.empty();
      }
      return Optional.of(Path.of(configured));
    }
    String root = System.getProperty("modelplane.repo.root");
    Path script = root == null ? null : Path.of(root, BUILD_SCRIPT);
    if (script == null || !Files.isExecutable(script)) {
      err.println("up: --monitoring needs a Prometheus server: set " + BIN_VARIABLE + " to its path, or run up "
          + "from the repository (" + BUILD_SCRIPT + " builds it)");
      return Optional.empty();
    }
    // The build's progress goes to our stderr; its last stdout line is the binary.
    Process build = new ProcessBuilder(script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    String printed = new String(build.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!build.waitFor(1, TimeUnit.HOURS) || build.exitValue() != 0 || printed.isEmpty()) {
      err.println("up: " + BUILD_SCRIPT + " did not build Prometheus (it needs Go and the Go module proxy); set "
          + BIN_VARIABLE + " to a Prometheus binary instead");
      return Optional.empty();
    }
    return Optional.of(Path.of(printed.substring(printed.lastIndexOf('\n') + 1)));
  }

  private static boolean post(HttpClient http, String url) {
    try {
      return http.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(url)).timeout(Duration.ofSeconds(5))
          .POST(java.net.http.HttpRequest.BodyPublishers.noBody()).build(),
          java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static boolean free(int port) {
    try (ServerSocket socket = new ServerSocket()) {
      socket.setReuseAddress(true);
      socket.bind(new InetSocketAddress("127.0.0.1", port));
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket()) {
      socket.bind(new InetSocketAddress("127.0.0.1", 0));
      return socket.getLocalPort();
    }
  }
}
