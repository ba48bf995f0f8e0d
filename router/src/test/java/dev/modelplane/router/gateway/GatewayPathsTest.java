package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.testing.FakeModelServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Every path reaches a model server: the APIs the router parses (rerank, Anthropic's messages, audio) are forwarded
 * as received, a path or method no parser claims is passed through and scheduled by load, and only a request its
 * API would refuse is answered by the router, in that API's error shape.
 */
class GatewayPathsTest extends GatewayHarness {
  @Test
  void rerankAndScoreAreForwarded() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    HttpResponse<String> rerank = post("/v1/rerank", "{\"model\":\"m\",\"query\":\"q\",\"documents\":[\"a\",\"b\"]}");
    assertThat(rerank.statusCode()).as(rerank.body()).isEqualTo(200);
    HttpResponse<String> score = post("/score", "{\"text_1\":\"q\",\"text_2\":[\"a\"]}");
    assertThat(score.statusCode()).as(score.body()).isEqualTo(200);
    assertThat(a.uris()).containsExactly("/v1/rerank", "/score");
    assertThat(a.bodies().get(0).getString("query")).isEqualTo("q");
    HttpResponse<String> invalid = post("/v1/rerank", "{\"model\":\"m\",\"query\":\"q\"}");
    assertThat(invalid.statusCode()).isEqualTo(400);
    assertThat(invalid.body()).contains("\"type\":\"invalid_request_error\"")
        .contains("invalid rerank request: must have query and documents fields");
    assertThat(a.requests()).isEqualTo(2);
  }

  @Test
  void anthropicMessagesAreForwardedAndRefusedInAnthropicsShape() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 4096);
    HttpResponse<String> ok = post("/v1/messages", "{\"model\":\"m\",\"max_tokens\":16,\"system\":\"be brief\","
        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}", "anthropic-version", "2023-06-01");
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(200);
    assertThat(a.uris()).containsExactly("/v1/messages");
    assertThat(a.headers().get(0).get("anthropic-version")).isEqualTo("2023-06-01");
    HttpResponse<String> count = post("/v1/messages/count_tokens", "{\"model\":\"m\",\"messages\":[]}");
    assertThat(count.statusCode()).as("count_tokens is passed through").isEqualTo(200);

    HttpResponse<String> empty = post("/v1/messages", "{\"model\":\"m\",\"max_tokens\":16,\"messages\":[]}");
    assertThat(empty.statusCode()).isEqualTo(400);
    assertThat(empty.body()).isEqualTo("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
        + "\"message\":\"invalid messages request: must have at least one message\"}}");
    HttpResponse<String> malformed = post("/v1/messages", "{\"model\":");
    assertThat(malformed.statusCode()).isEqualTo(400);
    assertThat(malformed.body()).startsWith("{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
        + "\"message\":\"error unmarshaling request body");
    HttpResponse<String> tooLarge = post("/v1/messages", "{\"model\":\"m\",\"messages\":[\"" + "x".repeat(5000)
        + "\"]}");
    assertThat(tooLarge.statusCode()).isEqualTo(413);
    assertThat(tooLarge.body()).contains("\"type\":\"request_too_large\"");
    assertThat(a.requests()).isEqualTo(2);
  }

  @Test
  void anUnknownPostPathIsPassedThroughWhateverItsBody() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    HttpResponse<String> json = post("/v1/images/variations", "{\"model\":\"m\",\"n\":1}");
    assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
    HttpResponse<String> text = post("/inference/v1/generate", "not json {");
    assertThat(text.statusCode()).as("never 400 for a body no parser reads: " + text.body()).isEqualTo(200);
    assertThat(a.uris()).containsExactly("/v1/images/variations", "/inference/v1/generate");
    assertThat(a.rawBodies().get(1).toString()).isEqualTo("not json {");
    assertThat(a.bodies().get(0).getString("model")).isEqualTo("m");
  }

  @Test
  void aModelRewriteChangesAPassedThroughJsonBodyAndLeavesAnyOtherUntouched() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    HttpResponse<String> json = post("/v1/images/variations", "{\"model\":\"m\",\"n\":1}",
        "x-gateway-model-name-rewrite", "m-lora");
    assertThat(json.statusCode()).as(json.body()).isEqualTo(200);
    assertThat(a.bodies().get(0).getString("model")).isEqualTo("m-lora");
    assertThat(a.bodies().get(0).getInteger("n")).isEqualTo(1);
    HttpResponse<String> text = post("/v1/files", "model=m&not json", "x-gateway-model-name-rewrite", "m-lora");
    assertThat(text.statusCode()).as(text.body()).isEqualTo(200);
    assertThat(a.rawBodies().get(1).toString()).isEqualTo("model=m&not json");
    HttpResponse<String> noModel = post("/v1/batches", "{\"input_file_id\":\"f\"}",
        "x-gateway-model-name-rewrite", "m-lora");
    assertThat(noModel.statusCode()).isEqualTo(200);
    assertThat(a.rawBodies().get(2).toString()).as("no model to rewrite").isEqualTo("{\"input_file_id\":\"f\"}");
  }

  @Test
  void otherMethodsArePassedThrough() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    HttpResponse<String> get = http.send(HttpRequest.newBuilder(uri("/v1/responses/resp_1?include=x"))
        .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).as(get.body()).isEqualTo(200);
    HttpResponse<String> delete = http.send(HttpRequest.newBuilder(uri("/v1/chat/completions"))
        .timeout(Duration.ofSeconds(20)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(delete.statusCode()).as("a DELETE is not read as a chat request: " + delete.body()).isEqualTo(200);
    assertThat(a.methods()).containsExactly("GET", "DELETE");
    assertThat(a.uris()).containsExactly("/v1/responses/resp_1?include=x", "/v1/chat/completions");
    HttpResponse<String> health = http.send(HttpRequest.newBuilder(uri("/health")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(health.body()).as("the admin endpoints still answer themselves").contains("\"pools\"");
    assertThat(a.requests()).isEqualTo(2);
  }

  @Test
  void audioIsForwardedAsAFormAndItsModelRead() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), null, 1 << 20);
    String boundary = "b0undary";
    String form = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
        + "Content-Type: audio/wav\r\n\r\nRIFF\u0000\u0001binary\r\n--" + boundary + "\r\n"
        + "Content-Disposition: form-data; name=\"model\"\r\n\r\nwhisper\r\n--" + boundary + "--\r\n";
    HttpRequest req = HttpRequest.newBuilder(uri("/v1/audio/transcriptions")).timeout(Duration.ofSeconds(20))
        .header("content-type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofByteArray(form.getBytes(StandardCharsets.ISO_8859_1))).build();
    HttpResponse<String> r = http.send(req, HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(a.rawBodies().get(0).getBytes()).isEqualTo(form.getBytes(StandardCharsets.ISO_8859_1));
    HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(uri("/metrics")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(metrics.body()).contains("inference_objective_request_total{model_name=\"whisper\"");
  }
}
