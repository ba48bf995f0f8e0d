package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.testing.FakeModelServer;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Only the inference APIs reach a model server: its admin endpoints (sleep, LoRA loading, metrics, …) and methods
 * outside the APIs are a 404 from the gateway, however the path is spelled — through a pool path prefix, with
 * percent-encoding or dot segments — and a passed-through request other than a POST is never sent twice.
 */
class GatewayPathPolicyTest extends GatewayHarness {
  private static final String[] ADMIN = {"/sleep?level=1", "/wake_up", "/is_sleeping", "/reset_prefix_cache",
      "/collective_rpc", "/v1/load_lora_adapter", "/v1/unload_lora_adapter", "/server_info", "/metrics",
      "/start_profile", "/stop_profile", "/scale_elastic_ep", "/pause", "/update_weights"};

  @Test
  void adminPathsAreRefusedDirectlyAndThroughAPoolPath() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    for (String path : ADMIN) {
      for (String prefix : new String[] {"", "/inference-pools/static/static"}) {
        for (String method : new String[] {"POST", "GET"}) {
          if (prefix.isEmpty() && method.equals("GET") && path.equals("/metrics")) {
            continue; // the gateway's own metrics
          }
          HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri(prefix + path))
              .timeout(Duration.ofSeconds(20)).method(method, HttpRequest.BodyPublishers.ofString("{}")).build(),
              HttpResponse.BodyHandlers.ofString());
          assertThat(r.statusCode()).as(method + " " + prefix + path).isEqualTo(404);
          assertThat(r.body()).as(method + " " + prefix + path)
              .startsWith("{\"error\":{\"message\":\"unsupported route " + method + " " + path.split("\\?")[0])
              .contains("\"type\":\"not_found_error\"");
        }
      }
    }
    assertThat(a.requests()).isZero();
  }

  @Test
  void encodedAndDotSegmentSpellingsOfAdminPathsAreRefused() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    for (String path : new String[] {"/v1/../sleep", "/v1/%2e%2e/sleep", "/%73leep", "/v1/%6Coad_lora_adapter",
        "/v1/./load_lora_adapter", "/inference-pools/static/static/v1/../collective_rpc", "//v1//load_lora_adapter", "/v1/load_lora_adapter/"}) {
      assertThat(raw("POST " + path)).as(path).startsWith("HTTP/1.1 404");
    }
    for (String path : new String[] {"/v1%2Fload_lora_adapter", "/v1/x%5c..%5csleep", "/v1/%"}) {
      assertThat(raw("POST " + path)).as(path).startsWith("HTTP/1.1 400").contains("\"invalid_request_error\"");
    }
    assertThat(a.requests()).isZero();
  }

  @Test
  void anEncodedPathIsForwardedNormalizedAndParsedByItsApi() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    String response = raw("POST /v1/%63hat/./completions", "{\"model\":\"m\",\"messages\":[]}");
    assertThat(response).as("read as chat, whose empty messages are refused").startsWith("HTTP/1.1 400")
        .contains("invalid chat completions request: must have valid messages field");
    assertThat(raw("POST /v1/x/../%63hat/completions?q=%2F", chat("hi", false))).startsWith("HTTP/1.1 200");
    assertThat(a.uris()).containsExactly("/v1/chat/completions?q=%2F");
    HttpResponse<String> messages = post("/v1/%6Dessages/anything", "{}");
    assertThat(messages.statusCode()).isEqualTo(200);
    assertThat(a.uris()).last().isEqualTo("/v1/messages/anything");
  }

  @Test
  void traceConnectAndPutAreRefusedAndHeadIsForwarded() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    assertThat(raw("TRACE /v1/models")).startsWith("HTTP/1.1 404").contains("unsupported route TRACE /v1/models");
    assertThat(raw("CONNECT 127.0.0.1:1")).startsWith("HTTP/1.1 404")
        .contains("unsupported route CONNECT 127.0.0.1:1");
    assertThat(raw("PUT /v1/files/f1", "{}")).startsWith("HTTP/1.1 404");
    assertThat(raw("TRACE /v1/messages")).startsWith("HTTP/1.1 404")
        .contains("{\"type\":\"error\",\"error\":{\"type\":\"not_found_error\"");
    assertThat(a.requests()).isZero();
    HttpResponse<Void> head = http.send(HttpRequest.newBuilder(uri("/v1/files/f1")).timeout(Duration.ofSeconds(20))
        .method("HEAD", HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.discarding());
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(a.methods()).containsExactly("HEAD");
  }

  @Test
  void allowedPassthroughPathsAreStillForwarded() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    for (String path : new String[] {"/v1/files", "/pooling", "/classify", "/v2/rerank", "/tokenize",
        "/inference-pools/static/static/v1/batches"}) {
      HttpResponse<String> r = post(path, "{\"model\":\"m\",\"prompt\":\"x\",\"query\":\"q\",\"documents\":[]}");
      assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
    }
    assertThat(a.uris()).containsExactly("/v1/files", "/pooling", "/classify", "/v2/rerank", "/tokenize",
        "/v1/batches");
  }

  @Test
  void aDeleteIsNotSentAgainAfterItReachedAModelServerButAPostIs() throws Exception {
    FakeModelServer a = server("a").hang();
    FakeModelServer b = server("b").hang();
    router(a.hostPort() + "," + b.hostPort(), GatewayOptions.Limits.defaults()
        .withUpstream(Duration.ofMillis(300), Duration.ofMinutes(1)));
    HttpResponse<String> delete = http.send(HttpRequest.newBuilder(uri("/v1/responses/resp_1"))
        .timeout(Duration.ofSeconds(20)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(delete.statusCode()).isEqualTo(504);
    assertThat(a.requests() + b.requests()).as("the DELETE was sent once").isEqualTo(1);
    HttpResponse<String> post = post("/v1/chat/completions", chat("hi", false));
    assertThat(post.statusCode()).isEqualTo(504);
    assertThat(a.requests() + b.requests()).as("the POST was tried on both endpoints").isGreaterThanOrEqualTo(3);
  }

  /** Sends {@code requestLine} (method and target, sent as written) and returns the whole response. */
  private String raw(String requestLine) throws Exception {
    return raw(requestLine, null);
  }

  private String raw(String requestLine, String body) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", router.gatewayPort())) {
      socket.setSoTimeout(10_000);
      byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write((requestLine + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\ncontent-type: "
          + "application/json\r\ncontent-length: " + bytes.length + "\r\n\r\n").getBytes(StandardCharsets.UTF_8));
      out.write(bytes);
      out.flush();
      InputStream in = socket.getInputStream();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
