package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.testing.FakeModelServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Requests under {@code /inference-pools/<namespace>/<name>/} reach that pool with the prefix stripped: what a
 * benchmark pointed at one pool of a router serving several relies on.
 */
class PoolPathTest extends GatewayHarness {
  private FakeModelServer staticServer;
  private FakeModelServer chatServer;

  private void twoPools() throws Exception {
    staticServer = server("static-server");
    chatServer = server("chat-server").modelList("{\"data\":[{\"id\":\"chat-model\",\"owned_by\":\"chat-server\"}]}");
    router(staticServer.hostPort(), null, 1 << 20);
    router.pools().getOrCreate(new PoolKey("team-a", "chat"))
        .setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", chatServer.port())));
  }

  @Test
  void aPoolPathRoutesToThatPoolAndForwardsTheApiPathWithItsQuery() throws Exception {
    twoPools();
    HttpResponse<String> r = post("/inference-pools/team-a/chat/v1/chat/completions?trace=1", chat("hi", false),
        "x-request-id", "req-7");
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.body()).contains("hello from chat-server");
    assertThat(r.headers().firstValue(ForwardedHeaders.SERVED)).contains(chatServer.hostPort());
    assertThat(chatServer.uris()).containsExactly("/v1/chat/completions?trace=1");
    assertThat(chatServer.headers().get(0).get("x-request-id")).isEqualTo("req-7");
    assertThat(staticServer.requests()).isZero();

    // The path wins over the pool header; other requests go where the header or their model sends them.
    HttpResponse<String> both = post("/inference-pools/team-a/chat/v1/completions",
        "{\"model\":\"m\",\"prompt\":\"x\"}", "x-modelplane-inference-pool", "static/static");
    assertThat(both.body()).contains("hello from chat-server");
    assertThat(chatServer.uris()).last().isEqualTo("/v1/completions");
    HttpResponse<String> plain = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"x\"}");
    assertThat(plain.body()).contains("hello from static-server");
    assertThat(staticServer.uris()).containsExactly("/v1/completions");
  }

  @Test
  void modelsAreListedThroughAPoolPath() throws Exception {
    twoPools();
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/inference-pools/team-a/chat/v1/models"))
        .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).contains("\"id\":\"chat-model\"", "\"owned_by\":\"chat-server\"");
  }

  @Test
  void anUnknownPoolIsAnOpenAiStyle404NamingIt() throws Exception {
    twoPools();
    HttpResponse<String> r = post("/inference-pools/team-b/chat/v1/chat/completions", chat("hi", false));
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.headers().firstValue("content-type")).contains("application/json");
    assertThat(r.body()).contains("\"error\"", "\"type\":\"not_found_error\"",
        "no such inference pool: team-b/chat");
    assertThat(chatServer.requests() + staticServer.requests()).isZero();
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
      "/inference-pools|expected /inference-pools/<namespace>/<name>/<API path>",
      "/inference-pools/team-a/chat|expected /inference-pools/<namespace>/<name>/<API path>",
      "/inference-pools/team-a|expected /inference-pools/<namespace>/<name>/<API path>",
      "/inference-pools//chat/v1/completions|'' is not a namespace name",
      "/inference-pools/Team-A/chat/v1/completions|'Team-A' is not a namespace name",
      "/inference-pools/team-a/ch%2Fat/v1/completions|'ch%2Fat' is not an InferencePool name",
      "/inference-pools/team-a//v1/completions|'' is not an InferencePool name"})
  void aMalformedPoolPathIsAnOpenAiStyle400(String path, String why) throws Exception {
    twoPools();
    HttpResponse<String> r = post(path, "{\"model\":\"m\",\"prompt\":\"x\"}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("\"type\":\"invalid_request_error\"",
        "malformed inference pool path " + path + ": " + why);
    assertThat(chatServer.requests() + staticServer.requests()).isZero();
  }

  @Test
  void pathsThatOnlyResembleThePrefixAreOrdinaryRoutes() {
    assertThat(PoolPath.parse("/inference-poolsx/a/b/v1")).isNull();
    assertThat(PoolPath.parse("/v1/inference-pools/a/b/c")).isNull();
    assertThat(PoolPath.parse("/inference-pools/a/b/")).isEqualTo(new PoolPath(new PoolKey("a", "b"), "/"));
    assertThat(PoolPath.parse("/inference-pools/a/b.c/v1?q=/x")).isEqualTo(new PoolPath(new PoolKey("a", "b.c"),
        "/v1?q=/x"));
  }
}
