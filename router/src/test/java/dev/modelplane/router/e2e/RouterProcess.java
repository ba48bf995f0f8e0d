package dev.modelplane.router.e2e;

import dev.modelplane.router.RouterCommand;
import dev.modelplane.testsupport.FreePorts;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine;

/**
 * A router in a JVM of its own, started as a user starts one ({@code router} and its flags), on the test's class
 * path. {@link #main} is the child's entry point: the router module has no main class of its own (the CLI module
 * does, and depends on this one).
 */
final class RouterProcess implements AutoCloseable {
  private static final Duration START = Duration.ofSeconds(30);
  private final Process process;
  private final int port;

  private RouterProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** The child's entry point: the router command with the given flags. */
  public static void main(String[] args) {
    System.exit(new CommandLine(new RouterCommand()).execute(args));
  }

  /**
   * Starts a router on a free loopback port in front of {@code endpoints}, with the word tokenizer and
   * {@code configYaml}; returns once its gateway answers.
   */
  static RouterProcess start(String endpoints, String configYaml, Path log) throws Exception {
    int port = FreePorts.pick();
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
        .toString(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"),
        RouterProcess.class.getName(), "--host", "127.0.0.1", "--port", Integer.toString(port), "--grpc-port", "-1",
        "--grpc-health-port", "-1", "--metrics-port", "-1", "--endpoints", endpoints, "--tokenizer", "word",
        "--config-text", configYaml, "--event-loops", "1", "--no-access-log"));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    RouterProcess router = new RouterProcess(p, port);
    try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build()) {
      long deadline = System.nanoTime() + START.toNanos();
      while (System.nanoTime() < deadline && p.isAlive()) {
        try {
          if (http.send(HttpRequest.newBuilder(URI.create(router.base() + "/metrics")).timeout(Duration.ofSeconds(2))
              .build(), HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
            return router;
          }
        } catch (IOException notYet) {
          // not listening yet
        }
        Thread.sleep(100);
      }
    }
    router.close();
    throw new AssertionError("the router process did not start; its output:\n" + Files.readString(log));
  }

  /** The gateway's base URL. */
  String base() {
    return "http://127.0.0.1:" + port;
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
