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
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * A GCS emulator (fake-gcs-server: the JSON API, filesystem backend) on a free 127.0.0.1 port with the bucket
 * {@value #BUCKET}, reached through a {@link ThrottlingProxy} so downloads can be slowed. It checks no credentials:
 * models are read anonymously ({@link #secretData()} is empty). The binary comes from
 * {@code $MODELPLANE_GCS_SERVER_BIN} (or the system property {@code modelplane.gcs-server.bin}), a bin directory, else
 * from the cache {@code hack/gcs-server/build.sh --check} reports. {@link #close()} stops only the process this class
 * started, by its PID.
 *
 * <p>{@link #putWithWrongChecksum} uploads the announced bytes (so the emulator records their CRC32C and MD5; it
 * refuses uploads whose given checksums do not match) and then overwrites the stored file in the filesystem backend
 * with the real bytes of the same length: the emulator serves the file as it lies on disk, with the stored metadata.
 */
public final class GcsServer implements TestModelStore {
  public static final String BUCKET = "models";
  public static final String BINARY = "fake-gcs-server";
  private static final Duration STARTUP = Duration.ofSeconds(30);
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final ServerProcess process;
  private final int port;
  private final Path root;
  private final ThrottlingProxy proxy;

  private GcsServer(ServerProcess process, int port, Path root) throws IOException {
    this.process = process;
    this.port = port;
    this.root = root;
    this.proxy = ThrottlingProxy.to(port);
  }

  /** Starts a server storing into {@code dir}; skips (or under CI fails) the calling test when there is no binary. */
  public static GcsServer startOrSkip(Path dir) throws IOException {
    Optional<Path> bin = findBinary();
    if (bin.isEmpty()) {
      String why = "the GCS emulator (" + BINARY + ") is not built: run hack/gcs-server/build.sh (needs Go 1.26+) or "
          + "set MODELPLANE_GCS_SERVER_BIN to its bin directory";
      if ("true".equals(System.getenv("CI"))) {
        throw new IllegalStateException("CI=true and no GCS emulator: " + why);
      }
      System.err.println("[modelplane] GCS tests skipped: " + why);
      Assumptions.abort("skipped: " + why);
    }
    IOException last = null;
    for (int tries = 0; tries < 3; tries++) {
      try {
        return start(bin.get(), dir.resolve("gcs-" + tries));
      } catch (IOException e) {
        last = e; // most likely the free port was taken between probe and bind; try another
      }
    }
    throw last;
  }

  /** The binary, if it can be had without building. */
  public static Optional<Path> findBinary() {
    return HackBuild.binary("modelplane.gcs-server.bin", "MODELPLANE_GCS_SERVER_BIN", "gcs-server/build.sh", BINARY);
  }

  private static GcsServer start(Path binary, Path dir) throws IOException {
    Path root = Files.createDirectories(dir.resolve("root"));
    Path log = dir.resolve("gcs-server.log");
    int port = FreePorts.pick();
    List<String> command = List.of(binary.toString(), "-scheme", "http", "-host", "127.0.0.1", "-port",
        Integer.toString(port), "-backend", "filesystem", "-filesystem-root", root.toString(), "-public-host",
        "127.0.0.1:" + port, "-log-level", "warn");
    GcsServer server = new GcsServer(ServerProcess.start(new ProcessBuilder(command), log), port, root);
    try {
      server.process.awaitAnswer("the GCS emulator", port, STARTUP, server::answers);
    } catch (IOException e) {
      server.close();
      throw e;
    }
    server.send("POST", "/storage/v1/b?project=modelplane-test", "application/json",
        ("{\"name\":\"" + BUCKET + "\"}").getBytes(StandardCharsets.UTF_8));
    return server;
  }

  /** {@code http://127.0.0.1:<port>} of the emulator itself, not slowed down. */
  public URI directEndpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  /** {@code http://127.0.0.1:<port>} of the throttling proxy in front of the emulator: what models are pointed at. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + proxy.port());
  }

  /** The emulator's process id, to show the test stops only its own process. */
  public long pid() {
    return process.pid();
  }

  @Override
  public String scheme() {
    return "gs";
  }

  /** {@code gs://models/<prefix>}. */
  @Override
  public String storageUri(String prefix) {
    return "gs://" + BUCKET + "/" + prefix;
  }

  @Override
  public Map<String, String> parameters() {
    return Map.of("endpoint", endpoint().toString());
  }

  @Override
  public Map<String, String> secretData() {
    return Map.of();
  }

  @Override
  public void put(String prefix, String path, byte[] data) throws IOException {
    String name = prefix.isEmpty() ? path : prefix + "/" + path;
    send("POST", "/upload/storage/v1/b/" + BUCKET + "/o?uploadType=media&name="
        + URLEncoder.encode(name, StandardCharsets.UTF_8), "application/octet-stream", data);
  }

  @Override
  public void putWithWrongChecksum(String prefix, String path, byte[] data, byte[] announcedAs) throws IOException {
    if (data.length != announcedAs.length) {
      throw new IllegalArgumentException("the announced bytes must be as long as the stored ones");
    }
    put(prefix, path, announcedAs);
    Path stored = root.resolve(BUCKET).resolve(prefix.isEmpty() ? path : prefix + "/" + path);
    // Overwritten in place, so metadata kept beside the file (or in its extended attributes) stays.
    Files.write(stored, data, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING);
  }

  @Override
  public void throttle(long bytesPerSecond) {
    proxy.throttle(bytesPerSecond);
  }

  private void send(String method, String pathAndQuery, String contentType, byte[] body) throws IOException {
    HttpRequest request = HttpRequest.newBuilder(URI.create(directEndpoint() + pathAndQuery))
        .timeout(Duration.ofSeconds(30)).header("Content-Type", contentType)
        .method(method, HttpRequest.BodyPublishers.ofByteArray(body)).build();
    try {
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        throw new IOException(method + " " + pathAndQuery + " answered " + response.statusCode() + ": "
            + response.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private boolean answers() {
    try {
      HttpResponse<Void> response = HTTP.send(HttpRequest.newBuilder(URI.create(directEndpoint() + "/storage/v1/b"))
          .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.discarding());
      return response.statusCode() == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() throws IOException {
    proxy.close();
    process.stop();
  }
}
