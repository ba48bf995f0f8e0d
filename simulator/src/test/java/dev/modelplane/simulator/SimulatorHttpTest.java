package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The OpenAI surface of one quick simulator: shapes, errors, small endpoints. */
class SimulatorHttpTest {
  static Simulator sim;
  static SimClient client;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.of("test-model").host("127.0.0.1").port(0).mode("echo").seed(7)
        .interTokenLatency(Duration.ofMillis(1)).prefillOverhead(Duration.ofMillis(1))
        .loraModules(List.of("{\"name\":\"sql-lora\",\"path\":\"/adapters/sql\"}")));
    client = new SimClient(sim.port());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  @Test
  void malformedJsonIsAnOpenAiStyle400() throws Exception {
    SimClient.Response r = client.post("/v1/chat/completions", "{\"model\": \"test-model\", \"messages\": [");
    assertThat(r.status()).isEqualTo(400);
    JsonNode e = r.json().get("error");
    assertThat(e.get("type").asText()).isEqualTo("BadRequestError");
    assertThat(e.get("code").isNull()).isTrue();
    assertThat(e.get("message").asText()).contains("not valid JSON");
    assertThat(e.has("param")).isTrue();
  }

  @Test
  void wrongFieldTypesAndUnknownModelsAreRejected() throws Exception {
    assertThat(client.post("/v1/completions", "{\"model\":\"test-model\",\"prompt\":\"hi\",\"max_tokens\":\"x\"}")
        .status()).isEqualTo(400);
    assertThat(client.post("/v1/completions", "[1,2]").status()).isEqualTo(400);
    SimClient.Response r = client.post("/v1/completions", SimClient.completion("nope", "hi", 2, false));
    assertThat(r.status()).isEqualTo(404);
    assertThat(r.json().at("/error/type").asText()).isEqualTo("NotFoundError");
    assertThat(r.json().at("/error/param").asText()).isEqualTo("model");
    assertThat(r.json().at("/error/code").asText()).isEqualTo("model_not_found");
    assertThat(client.get("/v1/completions").status()).isEqualTo(405);
    assertThat(client.get("/nowhere").status()).isEqualTo(404);
  }

  @Test
  void acceptAnyModelServesUnknownNamesWithTheBaseModelButKeepsAdapters() throws Exception {
    try (Simulator lenient = Simulator.start(SimulatorConfig.of("/models/qwen.gguf").host("127.0.0.1").port(0)
        .mode("echo").seed(3).acceptAnyModel(true).interTokenLatency(Duration.ofMillis(1))
        .prefillOverhead(Duration.ofMillis(1)).loraModules(List.of("sql-lora=/adapters/sql")))) {
      SimClient c = new SimClient(lenient.port());
      SimClient.Response any = c.post("/v1/completions", SimClient.completion("whatever-the-client-says", "hi", 2,
          false));
      assertThat(any.status()).isEqualTo(200);
      assertThat(any.json().get("model").asText()).isEqualTo("/models/qwen.gguf");
      assertThat(c.post("/v1/completions", SimClient.completion("sql-lora", "hi", 2, false)).json()
          .get("model").asText()).isEqualTo("sql-lora");
    }
  }

  @Test
  void contextLongerThanMaxModelLenIs400() throws Exception {
    SimClient.Response r = client.post("/v1/completions", SimClient.completion("test-model", "hi there", 5000, false));
    assertThat(r.status()).isEqualTo(400);
    assertThat(r.json().at("/error/message").asText()).contains("maximum context length is 1024");
  }

  @Test
  void nonStreamingChatEchoesTheLastUserMessage() throws Exception {
    String body = "{\"model\":\"test-model\",\"messages\":[{\"role\":\"system\",\"content\":\"be brief\"},"
        + "{\"role\":\"user\",\"content\":\"Hello simulator, how are you?\"}],\"max_completion_tokens\":50}";
    JsonNode r = client.post("/v1/chat/completions", body).json();
    assertThat(r.get("object").asText()).isEqualTo("chat.completion");
    assertThat(r.at("/choices/0/message/content").asText()).isEqualTo("Hello simulator, how are you?");
    assertThat(r.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
    assertThat(r.at("/usage/completion_tokens").asInt()).isEqualTo(7);
    assertThat(r.at("/usage/total_tokens").asInt())
        .isEqualTo(r.at("/usage/prompt_tokens").asInt() + 7);
  }

  @Test
  void maxTokensAndStopCutTheOutput() throws Exception {
    JsonNode r = client.post("/v1/completions",
        "{\"model\":\"test-model\",\"prompt\":\"one two three four five\",\"max_tokens\":2}").json();
    assertThat(r.at("/choices/0/text").asText()).isEqualTo("one two ");
    assertThat(r.at("/choices/0/finish_reason").asText()).isEqualTo("length");
    r = client.post("/v1/completions",
        "{\"model\":\"test-model\",\"prompt\":\"one two three four five\",\"stop\":[\"three\"]}").json();
    assertThat(r.at("/choices/0/text").asText()).isEqualTo("one two ");
    assertThat(r.at("/choices/0/finish_reason").asText()).isEqualTo("stop");
  }

  @Test
  void streamingChatSendsRoleFirstThenUsageThenDone() throws Exception {
    String body = "{\"model\":\"test-model\",\"messages\":[{\"role\":\"user\",\"content\":\"a b c d\"}],"
        + "\"stream\":true,\"stream_options\":{\"include_usage\":true}}";
    SimClient.Stream s = client.stream("/v1/chat/completions", body);
    assertThat(s.status()).isEqualTo(200);
    List<String> data = s.data();
    assertThat(data.get(data.size() - 1)).isEqualTo("[DONE]");
    JsonNode first = SimClient.JSON.readTree(data.get(0));
    assertThat(first.get("object").asText()).isEqualTo("chat.completion.chunk");
    assertThat(first.at("/choices/0/delta/role").asText()).isEqualTo("assistant");
    JsonNode usage = SimClient.JSON.readTree(data.get(data.size() - 2));
    assertThat(usage.get("choices")).isEmpty();
    assertThat(usage.at("/usage/completion_tokens").asInt()).isEqualTo(4);
    StringBuilder text = new StringBuilder();
    for (String d : data.subList(0, data.size() - 2)) {
      text.append(SimClient.JSON.readTree(d).at("/choices/0/delta/content").asText());
    }
    assertThat(text.toString()).isEqualTo("a b c d");
    assertThat(SimClient.JSON.readTree(data.get(data.size() - 3)).at("/choices/0/finish_reason").asText())
        .isEqualTo("stop");
  }

  @Test
  void streamingCompletionWithoutUsageHasNoUsageChunk() throws Exception {
    SimClient.Stream s = client.stream("/v1/completions", SimClient.completion("test-model", "x y z", 3, true));
    assertThat(s.data()).hasSize(4);
    assertThat(s.data().get(0)).contains("\"object\":\"text_completion\"").doesNotContain("usage");
  }

  @Test
  void modelsListsBaseAndAdapters() throws Exception {
    JsonNode data = client.get("/v1/models").json().get("data");
    assertThat(data).hasSize(2);
    assertThat(data.get(0).get("id").asText()).isEqualTo("test-model");
    assertThat(data.get(1).get("id").asText()).isEqualTo("sql-lora");
    assertThat(data.get(1).get("parent").asText()).isEqualTo("test-model");
  }

  @Test
  void loraAdaptersLoadServeAndUnload() throws Exception {
    assertThat(client.post("/v1/completions", SimClient.completion("new-lora", "hi", 1, false)).status())
        .isEqualTo(404);
    assertThat(client.post("/v1/load_lora_adapter", "{\"lora_name\":\"new-lora\",\"lora_path\":\"/a/b\"}").status())
        .isEqualTo(200);
    assertThat(client.post("/v1/load_lora_adapter", "{\"lora_name\":\"new-lora\",\"lora_path\":\"/a/b\"}").status())
        .isEqualTo(400);
    SimClient.Response r = client.post("/v1/completions", SimClient.completion("new-lora", "hi", 1, false));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("model").asText()).isEqualTo("new-lora");
    assertThat(client.post("/v1/unload_lora_adapter", "{\"lora_name\":\"new-lora\"}").status()).isEqualTo(200);
    assertThat(client.post("/v1/unload_lora_adapter", "{\"lora_name\":\"new-lora\"}").status()).isEqualTo(404);
  }

  @Test
  void tokenizeCountsLikeTheEngine() throws Exception {
    JsonNode t = client.post("/tokenize", "{\"model\":\"test-model\",\"prompt\":\"Hello, world!\"}").json();
    assertThat(t.get("count").asInt()).isEqualTo(4);
    assertThat(t.get("tokens")).hasSize(4);
    JsonNode c = client.post("/v1/completions", SimClient.completion("test-model", "Hello, world!", 1, false)).json();
    assertThat(c.at("/usage/prompt_tokens").asInt()).isEqualTo(4);
  }

  @Test
  void renderAnswersTheTokenIdsTheEngineRuns() throws Exception {
    String messages = "[{\"role\":\"system\",\"content\":\"Be brief.\"},{\"role\":\"user\",\"content\":\"Hi there\"}]";
    JsonNode chat = client.post("/v1/chat/completions/render", "{\"model\":\"test-model\",\"messages\":" + messages
        + "}").json();
    JsonNode tokenized = client.post("/tokenize", "{\"model\":\"test-model\",\"messages\":" + messages + "}").json();
    assertThat(chat.get("token_ids")).isEqualTo(tokenized.get("tokens"));
    assertThat(chat.get("model").asText()).isEqualTo("test-model");
    JsonNode served = client.post("/v1/chat/completions", "{\"model\":\"test-model\",\"max_tokens\":1,\"messages\":"
        + messages + "}").json();
    assertThat(served.at("/usage/prompt_tokens").asInt()).isEqualTo(chat.get("token_ids").size());

    JsonNode batch = client.post("/v1/completions/render", "{\"model\":\"test-model\","
        + "\"prompt\":[\"Hello, world!\",\"Bye\"]}").json();
    assertThat(batch).hasSize(2);
    assertThat(batch.at("/0/token_ids")).isEqualTo(client.post("/tokenize",
        "{\"model\":\"test-model\",\"prompt\":\"Hello, world!\"}").json().get("tokens"));
    JsonNode ids = client.post("/v1/completions/render", "{\"prompt\":[7,8,9]}").json();
    assertThat(ids.at("/0/token_ids").toString()).isEqualTo("[7,8,9]");
  }

  @Test
  void renderRejectsWhatItCannotRender() throws Exception {
    SimClient.Response bad = client.post("/v1/completions/render", "{\"model\":\"test-model\",\"prompt\":{}}");
    assertThat(bad.status()).isEqualTo(400);
    assertThat(bad.body()).contains("'prompt' must be a string, token ids, or a non-empty list of either.");
    assertThat(client.post("/v1/completions/render", "{\"model\":\"test-model\",\"prompt\":[]}").status())
        .isEqualTo(400);
    assertThat(client.post("/v1/chat/completions/render", "{\"model\":\"test-model\"}").status()).isEqualTo(400);
    SimClient.Response unknown = client.post("/v1/chat/completions/render",
        "{\"model\":\"no-such-model\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}");
    assertThat(unknown.status()).isEqualTo(404);
  }

  @Test
  void embeddingsAreDeterministicUnitVectors() throws Exception {
    JsonNode a = client.post("/v1/embeddings", "{\"model\":\"test-model\",\"input\":[\"cat\",\"dog\"],"
        + "\"dimensions\":8}").json();
    assertThat(a.get("data")).hasSize(2);
    JsonNode v = a.at("/data/0/embedding");
    assertThat(v).hasSize(8);
    double norm = 0;
    for (JsonNode x : v) {
      norm += x.asDouble() * x.asDouble();
    }
    assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
    JsonNode b = client.post("/v1/embeddings", "{\"model\":\"test-model\",\"input\":\"cat\",\"dimensions\":8,"
        + "\"encoding_format\":\"base64\"}").json();
    byte[] raw = java.util.Base64.getDecoder().decode(b.at("/data/0/embedding").asText());
    float first = java.nio.ByteBuffer.wrap(raw).order(java.nio.ByteOrder.LITTLE_ENDIAN).getFloat();
    assertThat((double) first).isCloseTo(v.get(0).asDouble(), org.assertj.core.data.Offset.offset(1e-6));
  }

  @Test
  void metricsCarryVllmNamesAndModelLabel() throws Exception {
    client.post("/v1/completions", SimClient.completion("test-model", "warm up", 2, false));
    String m = client.metrics();
    for (String name : List.of("vllm:num_requests_running", "vllm:num_requests_waiting", "vllm:kv_cache_usage_perc",
        "vllm:gpu_cache_usage_perc", "vllm:prefix_cache_queries_total", "vllm:prefix_cache_hits_total",
        "vllm:prompt_tokens_total", "vllm:generation_tokens_total")) {
      assertThat(m).contains(name + "{model_name=\"test-model\"}");
    }
    // Labels come sorted by name (the Prometheus client's order; label order carries no meaning).
    assertThat(SimClient.sample(m, "vllm:cache_config_info", "{block_size=\"16\",cache_dtype=\"auto\","))
        .isEqualTo(1);
    assertThat(SimClient.sample(m, "vllm:cache_config_info", "num_gpu_blocks=\"1024\"}")).isEqualTo(1);
    assertThat(m).contains("vllm:lora_requests_info{max_lora=\"1\",running_lora_adapters=\"\"");
    assertThat(m).contains("vllm:request_success_total{finished_reason=\"length\",model_name=\"test-model\"}");
    assertThat(m).contains("vllm:time_to_first_token_seconds_bucket{model_name=\"test-model\",le=\"+Inf\"}");
    assertThat(SimClient.sample(m, "vllm:generation_tokens_total")).isGreaterThanOrEqualTo(2);
  }
}
