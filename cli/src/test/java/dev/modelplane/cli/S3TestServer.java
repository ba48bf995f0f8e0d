package dev.modelplane.cli;

import dev.modelplane.operator.modelsource.fetch.SigV4Signer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The real S3-compatible server (versitygw, posix backend) on a free 127.0.0.1 port, from the cache that
 * {@code hack/s3-server/build.sh --check} reports; a test fails when it is not built. Objects are uploaded with signed
 * PUTs. {@link #close()} stops only this process, by its PID.
 */
final class S3TestServer implements AutoCloseable {
  static final String ACCESS_KEY = "modelplane-agent-test";
  static final String SECRET_KEY = "modelplane-agent-test-secret-0123456789";
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private final Process process;
  private final int port;

  private S3TestServer(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  static S3TestServer start(Path dir) throws IOException, InterruptedException {
    Path script = OperatorFixtures.repoRoot().resolve("hack/s3-server/build.sh");
    Process check = new ProcessBuilder(script.toString(), "--check").redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    String out = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    if (!check.waitFor(60, TimeUnit.SECONDS) || check.exitValue() != 0 || out.isEmpty()) {
      throw new IllegalStateException("the S3 test server is not built: run hack/s3-server/build.sh");
    }
    Path binary = Path.of(out.substring(out.lastIndexOf('\n') + 1)).resolve("versitygw");
    Path data = Files.createDirectories(dir.resolve("s3-data"));
    Path meta = Files.createDirectories(dir.resolve("s3-meta"));
    int port = OperatorFixtures.freePort();
    ProcessBuilder builder = new ProcessBuilder(binary.toString(), "--region", "us-east-1", "--port",
        "127.0.0.1:" + port, "--quiet", "posix", "--sidecar", meta.toString(), data.toString())
        .redirectErrorStream(true).redirectOutput(dir.resolve("s3-server.log").toFile());
    builder.environment().keySet().removeIf(k -> k.startsWith("ROOT_") || k.startsWith("VGW_"));
    builder.environment().put("ROOT_ACCESS_KEY", ACCESS_KEY);
    builder.environment().put("ROOT_SECRET_KEY", SECRET_KEY);
    S3TestServer server = new S3TestServer(builder.start(), port);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
        return server;
      } catch (IOException e) {
        Thread.sleep(100);
      }
    }
    server.close();
    throw new IOException("the S3 server did not listen on 127.0.0.1:" + port + " within 30 s");
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + port);
  }

  void createBucket(String bucket) throws IOException, InterruptedException {
    put("/" + bucket, new byte[0]);
  }

  void putObject(String bucket, String key, byte[] content) throws IOException, InterruptedException {
    put("/" + bucket + "/" + key, content);
  }

  private void put(String path, byte[] body) throws IOException, InterruptedException {
    String sha = SigV4Signer.sha256Hex(body);
    Map<String, String> headers = new SigV4Signer(ACCESS_KEY, SECRET_KEY, null, "us-east-1", "s3")
        .sign(new SigV4Signer.Request("PUT", "127.0.0.1:" + port, path, List.of(), Map.of(), sha), Instant.now());
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(endpoint() + path))
        .timeout(Duration.ofSeconds(30)).PUT(HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(request::header);
    HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      throw new IOException("PUT " + path + " answered " + response.statusCode() + ": " + response.body());
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort(); // closed again when this returns: nothing listens there
    }
  }
}
