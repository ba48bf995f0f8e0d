package dev.modelplane.operator.llmkube;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The downloader script hands credentials and the source URL to curl without putting them on its command line
 * (argv is readable by every process on the node through {@code /proc} and {@code ps}) and logs the URL without its
 * query. Runs the real script with sh and a real curl, behind a {@code curl} on PATH that records its arguments,
 * against a loopback server that records what it was sent.
 */
class DownloadCredentialsTest {
  private static final String HF_TOKEN = "hf_Secret\"With\\Quote";
  private static final String ACCESS_KEY = "AKIDEXAMPLE";
  private static final String SECRET_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
  private static final String SESSION_TOKEN = "FwoGZXIvYXdzSESSIONTOKEN";
  private static final String SIGNATURE = "X-Amz-Signature=0123456789abcdefsig";

  private final List<Map<String, String>> seen = new CopyOnWriteArrayList<>();
  private HttpServer server;
  private Path argvLog;

  @TempDir
  Path dir;

  @BeforeEach
  void start() throws IOException {
    Path realCurl = List.of(Path.of("/usr/bin/curl"), Path.of("/bin/curl")).stream().filter(Files::isExecutable)
        .findFirst().orElse(null);
    if (realCurl == null || !Files.isExecutable(Path.of("/bin/sh"))) {
      assertThat("true".equals(System.getenv("CI"))).as("sh and curl are needed to run the downloader script")
          .isFalse();
      Assumptions.abort("sh or curl is not installed");
    }
    argvLog = dir.resolve("argv.log");
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path wrapper = bin.resolve("curl");
    Files.writeString(wrapper, "#!/bin/sh\nfor a in \"$@\"; do echo \"$a\" >> \"" + argvLog + "\"; done\n"
        + "exec " + realCurl + " \"$@\"\n");
    Files.setPosixFilePermissions(wrapper, PosixFilePermissions.fromString("rwxr-xr-x"));
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", exchange -> {
      try (exchange) {
        seen.add(Map.of("uri", exchange.getRequestURI().toString(),
            "authorization", String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")),
            "session", String.valueOf(exchange.getRequestHeaders().getFirst("X-Amz-Security-Token"))));
        byte[] body = "weights".getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, body.length);
        exchange.getResponseBody().write(body);
      }
    });
    server.start();
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private String base() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  private String run(String modelFiles, Map<String, String> env) throws Exception {
    ProcessBuilder builder = new ProcessBuilder("sh", "-c", ModelStaging.DOWNLOAD_SCRIPT).redirectErrorStream(true);
    Map<String, String> e = builder.environment();
    List.of("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "all_proxy").forEach(e::remove);
    e.put("NO_PROXY", "*");
    e.put("PATH", dir.resolve("bin") + ":" + e.getOrDefault("PATH", "/usr/bin:/bin"));
    e.put("MODEL_FILES", modelFiles);
    e.putAll(env);
    Process p = builder.start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(output).isZero();
    return output;
  }

  @Test
  void theHubTokenReachesTheServerAsAHeaderButNeverCurlsArguments() throws Exception {
    Path target = dir.resolve("models/key/m.gguf");
    String presigned = base() + "/org/m.gguf?" + SIGNATURE + "&X-Amz-Credential=AKIDQUERY";
    String output = run(target + " " + presigned, Map.of("HF_TOKEN", HF_TOKEN));

    assertThat(Files.readString(target)).isEqualTo("weights");
    assertThat(seen).singleElement().satisfies(r -> {
      assertThat(r.get("authorization")).isEqualTo("Bearer " + HF_TOKEN);
      assertThat(r.get("uri")).isEqualTo("/org/m.gguf?" + SIGNATURE + "&X-Amz-Credential=AKIDQUERY");
    });
    String argv = Files.readString(argvLog);
    assertThat(argv).contains("--config").doesNotContain("hf_Secret").doesNotContain("Authorization")
        .doesNotContain("X-Amz-Signature").doesNotContain("/org/m.gguf");
    assertThat(output).contains("downloading " + base() + "/org/m.gguf\n").doesNotContain("hf_Secret")
        .doesNotContain("X-Amz").doesNotContain("?");
  }

  @Test
  void s3KeysSignTheRequestButNeverReachCurlsArguments() throws Exception {
    Path target = dir.resolve("models/key/m.gguf");
    String output = run(target + " s3://bucket/dir/m.gguf", Map.of("AWS_ENDPOINT_URL", base(),
        "AWS_ACCESS_KEY_ID", ACCESS_KEY, "AWS_SECRET_ACCESS_KEY", SECRET_KEY, "AWS_SESSION_TOKEN", SESSION_TOKEN,
        "AWS_REGION", "eu-west-1"));

    assertThat(Files.readString(target)).isEqualTo("weights");
    assertThat(seen).singleElement().satisfies(r -> {
      assertThat(r.get("uri")).isEqualTo("/bucket/dir/m.gguf");
      assertThat(r.get("authorization")).startsWith("AWS4-HMAC-SHA256 Credential=" + ACCESS_KEY + "/")
          .contains("/eu-west-1/s3/aws4_request").doesNotContain(SECRET_KEY);
      assertThat(r.get("session")).isEqualTo(SESSION_TOKEN);
    });
    String argv = Files.readString(argvLog);
    assertThat(argv).contains("--config").doesNotContain(ACCESS_KEY).doesNotContain(SECRET_KEY)
        .doesNotContain(SESSION_TOKEN).doesNotContain("--user").doesNotContain("aws-sigv4");
    assertThat(output).doesNotContain(SECRET_KEY).doesNotContain(SESSION_TOKEN);
  }

  @Test
  void withoutCredentialsNothingIsSentAndUserinfoIsNotLogged() throws Exception {
    Path target = dir.resolve("models/key/m.gguf");
    String withUser = base().replace("http://", "http://user:pass@") + "/m.gguf#frag";
    String output = run(target + " " + withUser, Map.of());

    assertThat(seen).singleElement().satisfies(r -> assertThat(r.get("authorization")).startsWith("Basic "));
    assertThat(output).contains("downloading " + base() + "/m.gguf\n").doesNotContain("pass")
        .doesNotContain("frag");
    assertThat(Files.readString(argvLog)).doesNotContain("pass");
  }
}
