package dev.modelplane.operator.llmkube;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The downloader init container's script, run for real with sh, curl and sha256sum (what the curl image has)
 * against a loopback server: the cache, the checksum and the refresh token of {@code refreshPolicy: OnChange}.
 */
class DownloadScriptTest {
  private final Map<String, byte[]> files = new ConcurrentHashMap<>();
  private static final int SLOW_CHUNKS = 5;
  private static final int SLOW_CHUNK = 64 * 1024;
  private static final Pattern PROGRESS = Pattern.compile("model-downloader: progress (\\S+) (\\d+) (\\S+)");
  private final AtomicInteger requests = new AtomicInteger();
  private HttpServer server;

  @TempDir
  Path cache;

  @BeforeEach
  void start() throws IOException {
    for (String tool : new String[] {"sh", "curl", "sha256sum"}) {
      boolean found = java.util.stream.Stream.of("/usr/bin", "/bin").anyMatch(d -> Files.isExecutable(Path.of(d,
          tool)));
      if (!found) {
        assertThat("true".equals(System.getenv("CI"))).as(tool + " is needed to run the downloader script").isFalse();
        Assumptions.abort(tool + " is not installed");
      }
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        requests.incrementAndGet();
        byte[] body = files.get(exchange.getRequestURI().getPath());
        if (body == null) {
          exchange.sendResponseHeaders(404, -1);
          return;
        }
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.createContext("/slow/", exchange -> {
      try (exchange) {
        // SLOW_CHUNKS chunks with a pause after each: the download takes a few seconds.
        exchange.sendResponseHeaders(200, (long) SLOW_CHUNKS * SLOW_CHUNK);
        for (int i = 0; i < SLOW_CHUNKS; i++) {
          exchange.getResponseBody().write(new byte[SLOW_CHUNK]);
          exchange.getResponseBody().flush();
          Thread.sleep(700);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  private String url(String path) {
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private record Run(int code, String output) {
  }

  private Run run(String modelFiles) throws Exception {
    return run(modelFiles, Map.of());
  }

  private Run run(String modelFiles, Map<String, String> env) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("sh", "-c", ModelStaging.DOWNLOAD_SCRIPT)
        .redirectErrorStream(true);
    builder.environment().put("MODEL_FILES", modelFiles);
    builder.environment().putAll(env);
    Process p = builder.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    return new Run(p.exitValue(), output);
  }

  private static String sha256(String s) throws Exception {
    return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
        .digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  @Test
  void aCachedFileIsKeptWithoutARefreshToken() throws Exception {
    files.put("/m.gguf", "v1".getBytes(StandardCharsets.UTF_8));
    Path target = cache.resolve("key/m.gguf");
    String line = target + " " + url("/m.gguf");
    assertThat(run(line).code()).isZero();
    assertThat(Files.readString(target)).isEqualTo("v1");

    files.put("/m.gguf", "v2".getBytes(StandardCharsets.UTF_8));
    Run again = run(line);
    assertThat(again.code()).isZero();
    assertThat(again.output()).contains("cached " + target);
    assertThat(Files.readString(target)).isEqualTo("v1");
    assertThat(requests).hasValue(1);
  }

  @Test
  void aRefreshTokenKeepsTheCopyWhileItMatchesAndDownloadsAgainWhenItChanges() throws Exception {
    files.put("/m.gguf", "v1".getBytes(StandardCharsets.UTF_8));
    Path target = cache.resolve("key/m.gguf");
    assertThat(run(target + " " + url("/m.gguf") + " - token1").code()).isZero();
    assertThat(Files.readString(cache.resolve("key/m.gguf.source")).strip()).isEqualTo("token1");

    assertThat(run(target + " " + url("/m.gguf") + " - token1").output()).contains("cached " + target);
    assertThat(requests).hasValue(1);

    files.put("/m.gguf", "v2".getBytes(StandardCharsets.UTF_8));
    Run changed = run(target + " " + url("/m.gguf") + " - token2");
    assertThat(changed.code()).isZero();
    assertThat(changed.output()).contains("the source changed since " + target + " was cached");
    assertThat(Files.readString(target)).isEqualTo("v2");
    assertThat(Files.readString(cache.resolve("key/m.gguf.source")).strip()).isEqualTo("token2");
    assertThat(requests).hasValue(2);
  }

  @Test
  void theChecksumIsVerifiedAndAMismatchKeepsNothing() throws Exception {
    files.put("/m.gguf", "v1".getBytes(StandardCharsets.UTF_8));
    Path target = cache.resolve("key/m.gguf");
    Run bad = run(target + " " + url("/m.gguf") + " " + sha256("other") + " token1");
    assertThat(bad.code()).isNotZero();
    assertThat(bad.output()).contains("FAILED");
    assertThat(target).doesNotExist();

    Run good = run(target + " " + url("/m.gguf") + " " + sha256("v1") + " token1");
    assertThat(good.code()).as(good.output()).isZero();
    assertThat(Files.readString(target)).isEqualTo("v1");
  }

  @Test
  void aSlowDownloadReportsGrowingProgressWithTheTotalAndEndsWithTheFullSize() throws Exception {
    Path target = cache.resolve("key/slow.gguf");
    Run slow = run(target + " " + url("/slow/slow.gguf"),
        Map.of("PROGRESS_INTERVAL", "1", "HF_TOKEN", "token-not-to-print"));
    assertThat(slow.code()).as(slow.output()).isZero();
    long size = (long) SLOW_CHUNKS * SLOW_CHUNK;
    assertThat(target).hasSize(size);
    List<long[]> lines = PROGRESS.matcher(slow.output()).results().map(m -> {
      assertThat(m.group(1)).isEqualTo("slow.gguf");
      assertThat(m.group(3)).isEqualTo(Long.toString(size));
      return new long[] {Long.parseLong(m.group(2))};
    }).toList();
    assertThat(lines).as(slow.output()).hasSizeGreaterThanOrEqualTo(2);
    assertThat(lines.get(lines.size() - 1)[0]).isEqualTo(size);
    assertThat(lines.get(0)[0]).as("a line while the file was still arriving").isLessThan(size);
    for (int i = 1; i < lines.size(); i++) {
      assertThat(lines.get(i)[0]).isGreaterThanOrEqualTo(lines.get(i - 1)[0]);
    }
    assertThat(slow.output()).doesNotContain("token-not-to-print");
    assertThat(cache.resolve("key")).isDirectoryNotContaining(p -> !p.getFileName().toString().equals("slow.gguf"));
  }

  @Test
  void aFastDownloadPrintsOneFinalProgressLineAndAFailedOneNone() throws Exception {
    files.put("/m.gguf", "v1".getBytes(StandardCharsets.UTF_8));
    Path target = cache.resolve("key/m.gguf");
    Run ok = run(target + " " + url("/m.gguf"));
    assertThat(ok.code()).isZero();
    assertThat(ok.output()).contains("model-downloader: progress m.gguf 2 2\n");

    Run missing = run(cache.resolve("key/gone.gguf") + " " + url("/gone.gguf"));
    assertThat(missing.code()).isNotZero();
    assertThat(missing.output()).doesNotContain("progress gone.gguf");
    assertThat(cache.resolve("key")).isDirectoryNotContaining(p -> p.getFileName().toString().startsWith("gone"));
  }
}
