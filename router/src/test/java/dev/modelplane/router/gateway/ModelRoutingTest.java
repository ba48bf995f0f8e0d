package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.testing.FakeModelServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A router serving several pools sends a request that names none to the pool serving the body's model. */
class ModelRoutingTest extends GatewayHarness {
  private FakeModelServer llama;
  private FakeModelServer qwen;

  private void twoPools() throws Exception {
    llama = server("llama-server").modelList("""
        {"object":"list","data":[{"id":"llama-8b","object":"model"},
          {"id":"sql-lora","object":"model","parent":"llama-8b"}]}""");
    qwen = server("qwen-server").modelList("{\"object\":\"list\",\"data\":[{\"id\":\"qwen-0.5b\"}]}");
    router(llama.hostPort(), null, 1 << 20);
    router.pools().getOrCreate(new PoolKey("team-a", "qwen"))
        .setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", qwen.port())));
    await().atMost(Duration.ofSeconds(10)).until(() -> get("/v1/models").body().contains("qwen-0.5b"));
  }

  private HttpResponse<String> get(String path) throws Exception {
    return http.send(HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static String completion(String model) {
    return "{\"model\":\"" + model + "\",\"prompt\":\"x\"}";
  }

  @Test
  void eachModelGoesToThePoolServingItAdaptersIncluded() throws Exception {
    twoPools();
    assertThat(post("/v1/completions", completion("qwen-0.5b")).body()).contains("hello from qwen-server");
    assertThat(post("/v1/completions", completion("llama-8b")).body()).contains("hello from llama-server");
    assertThat(post("/v1/chat/completions", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
        + "\"model\":\"sql-lora\"}").body()).contains("hello from llama-server");
    assertThat(qwen.requests()).isEqualTo(1);
    assertThat(llama.requests()).isEqualTo(2);
    // A named pool still wins over the model.
    assertThat(post("/v1/completions", completion("llama-8b"), "x-modelplane-inference-pool", "team-a/qwen").body())
        .contains("hello from qwen-server");
  }

  @Test
  void anAudioUploadGoesToThePoolServingTheModelOfItsForm() throws Exception {
    twoPools();
    String boundary = "b0undary";
    String form = "--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.wav\"\r\n"
        + "Content-Type: audio/wav\r\n\r\nRIFF....WAVE\r\n--" + boundary + "\r\n"
        + "Content-Disposition: form-data; name=\"model\"\r\n\r\nqwen-0.5b\r\n--" + boundary + "--\r\n";
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri("/v1/audio/transcriptions"))
        .timeout(Duration.ofSeconds(20)).header("content-type", "multipart/form-data; boundary=" + boundary)
        .POST(HttpRequest.BodyPublishers.ofString(form)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(qwen.requests()).isEqualTo(1);
    assertThat(llama.requests()).isZero();
  }

  @Test
  void aModelItsPoolDeclaresIsRoutedThereBeforeAnyServerRunsAndGets503NotNotFound() throws Exception {
    twoPools();
    EndpointPool idle = router.pools().getOrCreate(new PoolKey("team-b", "scaled-to-zero"));
    idle.declaredModels(java.util.Set.of("mistral-7b"));
    HttpResponse<String> r = post("/v1/completions", completion("mistral-7b"));
    assertThat(r.statusCode()).as(r.body()).isEqualTo(503);
    assertThat(r.body()).contains("team-b/scaled-to-zero has no ready endpoint");
    assertThat(get("/v1/models").body()).contains("\"id\":\"mistral-7b\"");
    idle.declaredModels(java.util.Set.of());
    assertThat(post("/v1/completions", completion("mistral-7b")).statusCode()).isEqualTo(404);
  }

  @Test
  void aModelNoPoolServesIsOpenAisNotFound() throws Exception {
    twoPools();
    HttpResponse<String> r = post("/v1/chat/completions", "{\"model\":\"gpt-5\",\"messages\":[]}");
    assertThat(r.statusCode()).isEqualTo(404);
    assertThat(r.headers().firstValue("content-type")).contains("application/json");
    assertThat(r.body()).isEqualTo("{\"error\":{\"message\":\"The model `gpt-5` does not exist.\","
        + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"model_not_found\"}}");
    HttpResponse<String> none = post("/v1/completions", "{\"prompt\":\"x\"}");
    assertThat(none.statusCode()).isEqualTo(400);
    assertThat(none.body()).contains("the request names no model");
    assertThat(llama.requests() + qwen.requests()).isZero();
  }

  @Test
  void theModelListIsEveryNameServedAcrossPools() throws Exception {
    twoPools();
    HttpResponse<String> list = get("/v1/models");
    assertThat(list.statusCode()).isEqualTo(200);
    assertThat(list.body()).isEqualTo("{\"object\":\"list\",\"data\":["
        + "{\"id\":\"llama-8b\",\"object\":\"model\",\"created\":0,\"owned_by\":\"modelplane\"},"
        + "{\"id\":\"qwen-0.5b\",\"object\":\"model\",\"created\":0,\"owned_by\":\"modelplane\"},"
        + "{\"id\":\"sql-lora\",\"object\":\"model\",\"created\":0,\"owned_by\":\"modelplane\",\"parent\":\"llama-8b\"}"
        + "]}");
    assertThat(get("/v1/models/qwen-0.5b").body())
        .isEqualTo("{\"id\":\"qwen-0.5b\",\"object\":\"model\",\"created\":0,\"owned_by\":\"modelplane\"}");
    HttpResponse<String> missing = get("/v1/models/gpt-5");
    assertThat(missing.statusCode()).isEqualTo(404);
    assertThat(missing.body()).contains("\"code\":\"model_not_found\"");
  }

  @Test
  void whileAServerHasNotSaidWhatItServesAnUnknownModelIsRetriedLaterNotRefused() throws Exception {
    twoPools();
    FakeModelServer loading = server("loading").modelList(null); // 503 while its model loads
    router.pools().getOrCreate(new PoolKey("team-b", "big"))
        .setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", loading.port())));
    HttpResponse<String> early = post("/v1/completions", completion("big-model"));
    assertThat(early.statusCode()).isEqualTo(503);
    assertThat(early.headers().firstValue("retry-after")).contains("1");
    assertThat(early.body()).contains("no pool is known to serve the model `big-model` yet");
    loading.modelList("{\"data\":[{\"id\":\"big-model\"}]}");
    await().atMost(Duration.ofSeconds(10)).until(() -> post("/v1/completions", completion("big-model"))
        .body().contains("hello from loading"));
    assertThat(post("/v1/completions", completion("gpt-5")).statusCode()).isEqualTo(404);
  }

  @Test
  void withOnePoolEveryRequestGoesThereWhateverItsModel() throws Exception {
    FakeModelServer only = server("only").modelList("{\"data\":[{\"id\":\"llama-8b\"}]}");
    router(only.hostPort(), null, 1 << 20);
    HttpResponse<String> r = post("/v1/completions", completion("anything"));
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(only.requests()).isEqualTo(1);
    // The list comes from the pool's own servers.
    assertThat(get("/v1/models").body()).contains("\"id\":\"llama-8b\"");
  }
}
