package dev.modelplane.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A real S3-compatible server (versitygw, posix backend, SigV4 checked) on a free 127.0.0.1 port, with fixed
 * credentials and its data in a directory of the test's choosing. The binary comes from
 * {@code $MODELPLANE_S3_SERVER_BIN} (or the system property {@code modelplane.s3-server.bin}), else from the cache
 * {@code hack/s3-server/build.sh --check} reports. Objects are uploaded with {@link #put}, signed by the caller's
 * SigV4 code (the project's own signer lives in the operator, which this module does not depend on).
 * {@link #close()} stops only the process this class started, by its PID.
 */
public final class S3Server implements AutoCloseable {
  public static final String ACCESS_KEY = "modelplane-test";
  public static final String SECRET_KEY = "modelplane-test-secret-0123456789";
  public static final String REGION = "us-east-1";
  public static final String BINARY = "versitygw";
  private static final Duration STARTUP = Duration.ofSeconds(30);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  /** Signs one request with {@link #ACCESS_KEY} and {@link #SECRET_KEY}: the headers to send with it. */
  @FunctionalInterface
  public interface Signer {
    /**
     * @param method the HTTP method
     * @param host the {@code Host} header, {@code 127.0.0.1:<port>}
     * @param path the request path, unencoded
     * @param payloadSha256 the body's SHA-256, lower-case hex
     */
    Map<String, String> headers(String method, String host, String path, String payloadSha256);
  }

  private final ServerProcess process;
  private final int port;

  private S3Server(ServerProcess process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts a server storing into {@code dir}; skips (or under CI fails) the calling test when there is no binary. */
  public static S3Server startOrSkip(Path dir) throws IOException {
    Optional<Path> bin = findBinary();
    if (bin.isEmpty()) {
      String why = missing();
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no S3 server: " + why);
      }
      System.err.println("[modelplane] S3 tests skipped: " + why);
      Assumptions.abort("skipped: " + why);
    }
    return start(bin.get(), dir);
  }

  /** Starts a server storing into {@code dir}; fails the calling test when there is no binary. */
  public static S3Server start(Path dir) throws IOException {
    return start(findBinary().orElseThrow(() -> new IllegalStateException(missing())), dir);
  }

  /** The binary, if it can be had without building. */
  public static Optional<Path> findBinary() {
    return HackBuild.binary("modelplane.s3-server.bin", "MODELPLANE_S3_SERVER_BIN", "s3-server/build.sh", BINARY);
  }

  private static String missing() {
    return "the S3-compatible server binary (" + BINARY + ") is not built: run hack/s3-server/build.sh "
        + "(needs Go 1.26+) or set MODELPLANE_S3_SERVER_BIN to its bin directory";
  }

  private static S3Server start(Path binary, Path dir) throws IOException {
    IOException last = null;
    for (int tries = 0; tries < 3; tries++) {
      try {
        return startOnce(binary, dir);
      } catch (IOException e) {
        last = e; // most likely the free port was taken between probe and bind; try another
      }
    }
    throw last;
  }

  private static S3Server startOnce(Path binary, Path dir) throws IOException {
    Path data = Files.createDirectories(dir.resolve("data"));
    Path meta = Files.createDirectories(dir.resolve("meta"));
    Path log = dir.resolve("s3-server.log");
    int port = FreePorts.pick();
    List<String> command = List.of(binary.toString(), "--region", REGION, "--port", "127.0.0.1:" + port, "--quiet",
        "posix", "--sidecar", meta.toString(), data.toString());
    ProcessBuilder builder = new ProcessBuilder(command);
    builder.environment().keySet().removeIf(k -> k.startsWith("ROOT_") || k.startsWith("VGW_"));
    // Credentials through the environment rather than the command line, which process listings show.
    builder.environment().put("ROOT_ACCESS_KEY", ACCESS_KEY);
    builder.environment().put("ROOT_SECRET_KEY", SECRET_KEY);
    S3Server server = new S3Server(ServerProcess.start(builder, log), port);
    server.process.awaitAnswer("the S3 server", port, STARTUP, () -> ServerProcess.answersHttp(port, "/"));
    return server;
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** The process id, to show the test stops only its own process. */
  public long pid() {
    return process.pid();
  }

  /**
   * A signed PUT: {@code /<bucket>} with an empty body creates a bucket, {@code /<bucket>/<key>} writes an object.
   *
   * @throws IOException when the server does not answer 200, with its answer
   */
  public void put(String path, byte[] body, Signer signer) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint() + path))
        .timeout(Duration.ofSeconds(30)).PUT(HttpRequest.BodyPublishers.ofByteArray(body));
    signer.headers("PUT", "127.0.0.1:" + port, path, Sha256.hex(body)).forEach(request::header);
    HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("PUT " + path + " answered " + response.statusCode() + ": " + response.body());
    }
  }

  @Override
  public void close() {
    process.stop();
  }
}
