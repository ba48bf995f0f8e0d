package dev.modelplane.operator.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A real S3-compatible server (versitygw, posix backend, SigV4 checked) on a free 127.0.0.1 port, with fixed
 * credentials and its data in a directory of the test's choosing. The binary comes from
 * {@code $MODELPLANE_S3_SERVER_BIN} (or the system property {@code modelplane.s3-server.bin}), else from the cache
 * {@code hack/s3-server/build.sh --check} reports. Without it the test is skipped, or fails under {@code CI=true}.
 * {@link #close()} stops only the process this class started, by its PID.
 */
public final class S3Server implements AutoCloseable {
  public static final String ACCESS_KEY = "modelplane-test";
  public static final String SECRET_KEY = "modelplane-test-secret-0123456789";
  public static final String BINARY = "versitygw";

  private final Process process;
  private final int port;
  private final Path log;

  private S3Server(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts a server storing into {@code dir}; skips (or under CI fails) the calling test when there is no binary. */
  public static S3Server startOrSkip(Path dir) throws IOException {
    Optional<Path> bin = findBinary();
    if (bin.isEmpty()) {
      String why = "the S3-compatible server binary (" + BINARY + ") is not built: run hack/s3-server/build.sh "
          + "(needs Go 1.26+) or set MODELPLANE_S3_SERVER_BIN to its bin directory";
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no S3 server: " + why);
      }
      System.err.println("[modelplane] S3 tests skipped: " + why);
      Assumptions.abort("skipped: " + why);
    }
    IOException last = null;
    for (int tries = 0; tries < 3; tries++) {
      try {
        return start(bin.get(), dir);
      } catch (IOException e) {
        last = e; // most likely the free port was taken between probe and bind; try another
      }
    }
    throw last;
  }

  /** The binary, if it can be had without building. */
  public static Optional<Path> findBinary() {
    String configured = System.getProperty("modelplane.s3-server.bin", System.getenv("MODELPLANE_S3_SERVER_BIN"));
    if (configured != null && !configured.isBlank()) {
      Path binary = Path.of(configured).resolve(BINARY);
      return Files.isExecutable(binary) ? Optional.of(binary) : Optional.empty();
    }
    return buildScript().flatMap(S3Server::checkedBinDir).map(d -> d.resolve(BINARY)).filter(Files::isExecutable);
  }

  private static S3Server start(Path binary, Path dir) throws IOException {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path meta = Files.createDirectories(dir.resolve("meta"));
    Path log = dir.resolve("s3-server.log");
    int port = freePort();
    List<String> command = List.of(binary.toString(), "--region", "us-east-1", "--port", "127.0.0.1:" + port, "--quiet", "posix", "--sidecar", meta.toString(),
        data.toString());
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    builder.environment().keySet().removeIf(k -> k.startsWith("ROOT_") || k.startsWith("VGW_"));
    // Credentials through the environment rather than the command line, which process listings show.
    builder.environment().put("ROOT_ACCESS_KEY", ACCESS_KEY);
    builder.environment().put("ROOT_SECRET_KEY", SECRET_KEY);
    S3Server server = new S3Server(builder.start(), port, log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!server.process.isAlive()) {
        throw new IOException("the S3 server exited with " + server.process.exitValue() + ": " + server.logTail());
      }
      if (server.answers()) {
        return server;
      }
      sleep(100);
    }
    server.close();
    throw new IOException("the S3 server did not answer on 127.0.0.1:" + port + " within 30 s: " + server.logTail());
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** The process id, to show the test stops only its own process. */
  public long pid() {
    return process.pid();
  }

  /** Whether the server accepts connections and answers HTTP. */
  private boolean answers() {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 500);
      socket.setSoTimeout(2000);
      socket.getOutputStream().write(("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\nConnection: close\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      byte[] head = socket.getInputStream().readNBytes(12);
      return new String(head, StandardCharsets.US_ASCII).startsWith("HTTP/1.1 ");
    } catch (IOException e) {
      return false;
    }
  }

  private String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 20), lines.size()));
    } catch (IOException e) {
      return "(no log)";
    }
  }

  @Override
  public void close() {
    if (!process.isAlive()) {
      return;
    }
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        process.waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private static Optional<Path> buildScript() {
    String root = System.getProperty("modelplane.repo.root");
    Path start = root != null && !root.isBlank() ? Path.of(root) : Path.of("").toAbsolutePath();
    for (Path d = start; d != null; d = d.getParent()) {
      Path script = d.resolve("hack/s3-server/build.sh");
      if (Files.isExecutable(script)) {
        return Optional.of(script);
      }
    }
    return Optional.empty();
  }

  private static Optional<Path> checkedBinDir(Path script) {
    try {
      List<String> command = new ArrayList<>(List.of(script.toString(), "--check"));
      Process check = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
      if (!check.waitFor(30, TimeUnit.SECONDS) || check.exitValue() != 0 || out.isEmpty()) {
        return Optional.empty();
      }
      return Optional.of(Path.of(out.substring(out.lastIndexOf('\n') + 1)));
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
