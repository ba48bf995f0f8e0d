package dev.modelplane.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The APIs beside chat and text completions: OpenAI's Responses, Anthropic's Messages, vLLM's rerank, score,
 * detokenize, and the prefill every pooling request is charged.
 */
class SimulatorApisTest {
  static Simulator sim;
  static SimClient client;

  @BeforeAll
  static void start() {
    sim = Simulator.start(SimulatorConfig.of("test-model").host("127.0.0.1").port(0).mode("echo").seed(7)
        .interTokenLatency(Duration.ofMillis(1)).prefillOverhead(Duration.ofMillis(1)));
    client = new SimClient(sim.port());
  }

  @AfterAll
  static void stop() {
    sim.close();
  }

  private static JsonNode json(String s) throws Exception {
    return SimClient.JSON.readTree(s);
  }

  @Test
  void responsesAnswerOneAssistantMessage() throws Exception {
    SimClient.Response r = client.post("/v1/responses", "{\"model\":\"test-model\",\"instructions\":\"be brief\","
        + "\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_text\",\"text\":\"hello there friend\"}]}],"
        + "\"max_output_tokens\":2}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    JsonNode body = r.json();
    assertThat(body.get("object").asText()).isEqualTo("response");
    assertThat(body.get("id").asText()).startsWith("resp_");
    assertThat(body.get("status").asText()).isEqualTo("incomplete");
    assertThat(body.at("/incomplete_details/reason").asText()).isEqualTo("max_output_tokens");
    assertThat(body.at("/output/0/type").asText()).isEqualTo("message");
    assertThat(body.at("/output/0/content/0/type").asText()).isEqualTo("output_text");
    assertThat(body.at("/output/0/content/0/text").asText()).isEqualTo("hello there ");
    assertThat(body.at("/usage/output_tokens").asInt()).isEqualTo(2);
    assertThat(body.at("/usage/input_tokens").asInt()).isPositive();
    assertThat(body.at("/usage/total_tokens").asInt())
        .isEqualTo(body.at("/usage/input_tokens").asInt() + 2);
    SimClient.Response plain = client.post("/v1/responses", "{\"input\":\"hi\"}");
    assertThat(plain.json().get("status").asText()).isIn("completed", "incomplete");
    assertThat(client.post("/v1/responses", "{\"model\":\"test-model\"}").status()).isEqualTo(400);
    assertThat(client.post("/v1/responses", "{\"model\":\"nope\",\"input\":\"hi\"}").status()).isEqualTo(404);
  }

  @Test
  void responsesStreamTheirEventsInOrder() throws Exception {
    SimClient.Stream s = client.stream("/v1/responses", "{\"model\":\"test-model\",\"input\":\"one two three\","
        + "\"max_output_tokens\":3,\"stream\":true}");
    assertThat(s.status()).isEqualTo(200);
    List<String> types = new ArrayList<>();
    StringBuilder deltas = new StringBuilder();
    for (int i = 0; i < s.data().size(); i++) {
      JsonNode e = json(s.data().get(i));
      assertThat(e.get("sequence_number").asInt()).isEqualTo(i);
      types.add(e.get("type").asText());
      if (e.get("type").asText().equals("response.output_text.delta")) {
        deltas.append(e.get("delta").asText());
      }
    }
    assertThat(types).containsExactly("response.created", "response.in_progress", "response.output_item.added",
        "response.content_part.added", "response.output_text.delta", "response.output_text.delta",
        "response.output_text.delta", "response.output_text.done", "response.content_part.done",
        "response.output_item.done", "response.completed");
    JsonNode completed = json(s.data().get(s.data().size() - 1)).get("response");
    assertThat(completed.at("/output/0/content/0/text").asText()).isEqualTo(deltas.toString())
        .isEqualTo("one two three");
    assertThat(completed.at("/usage/output_tokens").asInt()).isEqualTo(3);
  }

  @Test
  void aResponsesStreamCutByTheTokenLimitEndsIncomplete() throws Exception {
    SimClient.Stream s = client.stream("/v1/responses", "{\"model\":\"test-model\",\"input\":\"one two three\","
        + "\"max_output_tokens\":2,\"stream\":true}");
    List<JsonNode> events = new ArrayList<>();
    for (String d : s.data()) {
      events.add(json(d));
    }
    JsonNode last = events.get(events.size() - 1);
    assertThat(last.get("type").asText()).isEqualTo("response.incomplete");
    assertThat(last.at("/response/status").asText()).isEqualTo("incomplete");
    assertThat(last.at("/response/incomplete_details/reason").asText()).isEqualTo("max_output_tokens");
    assertThat(last.at("/response/output/0/status").asText()).isEqualTo("incomplete");
    assertThat(last.at("/response/usage/output_tokens").asInt()).isEqualTo(2);
    assertThat(events.get(events.size() - 2).at("/item/status").asText()).isEqualTo("incomplete");
    assertThat(events).noneMatch(e -> e.get("type").asText().equals("response.completed"));
  }

  @Test
  void anthropicStopSequencesAreReportedAndUsageAgreesFromStartToEnd() throws Exception {
    String request = "{\"model\":\"test-model\",\"max_tokens\":10,\"stop_sequences\":[\"nine\",\"three\"],"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"one two three four\"}]";
    JsonNode m = client.post("/v1/messages", request + "}").json();
    assertThat(m.at("/content/0/text").asText()).isEqualTo("one two ");
    assertThat(m.get("stop_reason").asText()).isEqualTo("stop_sequence");
    assertThat(m.get("stop_sequence").asText()).isEqualTo("three");
    SimClient.Stream s = client.stream("/v1/messages", request + ",\"stream\":true}");
    JsonNode start = json(s.data().get(0));
    JsonNode delta = s.data().stream().map(d -> {
      try {
        return json(d);
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }).filter(e -> e.get("type").asText().equals("message_delta")).findFirst().orElseThrow();
    assertThat(delta.at("/delta/stop_reason").asText()).isEqualTo("stop_sequence");
    assertThat(delta.at("/delta/stop_sequence").asText()).isEqualTo("three");
    assertThat(start.at("/message/usage/input_tokens").asInt()).isPositive()
        .isEqualTo(delta.at("/usage/input_tokens").asInt());
    assertThat(start.at("/message/usage/cache_read_input_tokens").asInt())
        .isEqualTo(delta.at("/usage/cache_read_input_tokens").asInt());
    JsonNode ended = client.post("/v1/messages", "{\"model\":\"test-model\",\"max_tokens\":10,\"messages\":"
        + "[{\"role\":\"user\",\"content\":\"one two\"}]}").json();
    assertThat(ended.get("stop_reason").asText()).isEqualTo("end_turn");
    assertThat(ended.get("stop_sequence").isNull()).isTrue();
  }

  @Test
  void anthropicMessagesAnswerInAnthropicsShape() throws Exception {
    SimClient.Response r = client.post("/v1/messages", "{\"model\":\"test-model\",\"max_tokens\":3,"
        + "\"system\":[{\"type\":\"text\",\"text\":\"be brief\"}],\"messages\":[{\"role\":\"user\",\"content\":"
        + "[{\"type\":\"text\",\"text\":\"one two three four\"}]}]}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    JsonNode m = r.json();
    assertThat(m.get("type").asText()).isEqualTo("message");
    assertThat(m.get("role").asText()).isEqualTo("assistant");
    assertThat(m.get("id").asText()).startsWith("msg_");
    assertThat(m.at("/content/0/type").asText()).isEqualTo("text");
    assertThat(m.at("/content/0/text").asText()).isEqualTo("one two three ");
    assertThat(m.get("stop_reason").asText()).isEqualTo("max_tokens");
    assertThat(m.at("/usage/output_tokens").asInt()).isEqualTo(3);
    int input = m.at("/usage/input_tokens").asInt() + m.at("/usage/cache_read_input_tokens").asInt();
    SimClient.Response count = client.post("/v1/messages/count_tokens", "{\"model\":\"test-model\","
        + "\"system\":[{\"type\":\"text\",\"text\":\"be brief\"}],\"messages\":[{\"role\":\"user\",\"content\":"
        + "\"one two three four\"}]}");
    assertThat(count.status()).isEqualTo(200);
    assertThat(count.json().get("input_tokens").asInt()).isEqualTo(input);
  }

  @Test
  void anthropicErrorsHaveAnthropicsShape() throws Exception {
    SimClient.Response noMax = client.post("/v1/messages", "{\"model\":\"test-model\",\"messages\":[{\"role\":"
        + "\"user\",\"content\":\"hi\"}]}");
    assertThat(noMax.status()).isEqualTo(400);
    assertThat(noMax.json().get("type").asText()).isEqualTo("error");
    assertThat(noMax.json().at("/error/type").asText()).isEqualTo("invalid_request_error");
    assertThat(noMax.json().at("/error/message").asText()).contains("max_tokens");
    SimClient.Response unknown = client.post("/v1/messages", "{\"model\":\"nope\",\"max_tokens\":3,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    assertThat(unknown.status()).isEqualTo(404);
    assertThat(unknown.json().at("/error/type").asText()).isEqualTo("not_found_error");
    SimClient.Response empty = client.post("/v1/messages/count_tokens", "{\"model\":\"test-model\",\"messages\":[]}");
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.json().get("type").asText()).isEqualTo("error");
  }

  @Test
  void openingEventsWaitForThePrefill() throws Exception {
    try (Simulator slow = Simulator.start(SimulatorConfig.of("test-model").host("127.0.0.1").port(0).mode("echo")
        .seed(7).interTokenLatency(Duration.ofMillis(1)).prefillOverhead(Duration.ofMillis(400)))) {
      java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
      String[][] streams = {
          {"/v1/messages", "{\"model\":\"test-model\",\"max_tokens\":2,\"stream\":true,"
              + "\"messages\":[{\"role\":\"user\",\"content\":\"alpha beta\"}]}", "event: message_start"},
          {"/v1/responses", "{\"model\":\"test-model\",\"input\":\"alpha beta\",\"stream\":true}",
              "event: response.created"}};
      for (String[] s : streams) {
        long sent = System.nanoTime();
        java.net.http.HttpResponse<java.io.InputStream> r = http.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create("http://127.0.0.1:" + slow.port() + s[0])).timeout(Duration.ofSeconds(30))
            .header("content-type", "application/json")
            .POST(java.net.http.HttpRequest.BodyPublishers.ofString(s[1])).build(),
            java.net.http.HttpResponse.BodyHandlers.ofInputStream());
        try (java.io.InputStream in = r.body()) {
          int first = in.read();
          long firstByteMs = (System.nanoTime() - sent) / 1_000_000;
          assertThat(firstByteMs).as(s[0] + ": the first event comes after the prefill").isGreaterThanOrEqualTo(350);
          String rest = (char) first + new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
          assertThat(rest).as(s[0]).startsWith(s[2]);
        }
      }
    }
  }

  @Test
  void anthropicMessagesStreamAnthropicsEvents() throws Exception {
    SimClient.Stream s = client.stream("/v1/messages", "{\"model\":\"test-model\",\"max_tokens\":2,\"stream\":true,"
        + "\"messages\":[{\"role\":\"user\",\"content\":\"alpha beta gamma\"}]}");
    assertThat(s.status()).isEqualTo(200);
    List<String> types = new ArrayList<>();
    StringBuilder text = new StringBuilder();
    for (String d : s.data()) {
      JsonNode e = json(d);
      types.add(e.get("type").asText());
      if (e.get("type").asText().equals("content_block_delta")) {
        assertThat(e.at("/delta/type").asText()).isEqualTo("text_delta");
        text.append(e.at("/delta/text").asText());
      }
    }
    assertThat(types).containsExactly("message_start", "content_block_start", "ping", "content_block_delta",
        "content_block_delta", "content_block_stop", "message_delta", "message_stop");
    assertThat(text.toString()).isEqualTo("alpha beta ");
    JsonNode start = json(s.data().get(0));
    assertThat(start.at("/message/role").asText()).isEqualTo("assistant");
    assertThat(start.at("/message/content").isEmpty()).isTrue();
    JsonNode delta = json(s.data().get(6));
    assertThat(delta.at("/delta/stop_reason").asText()).isEqualTo("max_tokens");
    assertThat(delta.at("/usage/output_tokens").asInt()).isEqualTo(2);
  }

  @Test
  void rerankOrdersDocumentsOnEveryPath() throws Exception {
    String body = "{\"model\":\"test-model\",\"query\":\"what is a cat\",\"top_n\":2,"
        + "\"documents\":[\"a cat is an animal\",\"stocks fell today\",\"what is a cat\"]}";
    for (String path : new String[] {"/rerank", "/v1/rerank", "/v2/rerank"}) {
      SimClient.Response r = client.post(path, body);
      assertThat(r.status()).as(path + ": " + r.body()).isEqualTo(200);
      JsonNode results = r.json().get("results");
      assertThat(results).hasSize(2);
      assertThat(results.get(0).get("index").asInt()).as("the query itself is the most relevant").isEqualTo(2);
      assertThat(results.get(0).get("relevance_score").asDouble())
          .isGreaterThanOrEqualTo(results.get(1).get("relevance_score").asDouble());
      assertThat(results.get(0).at("/document/text").asText()).isEqualTo("what is a cat");
      assertThat(r.json().at("/usage/total_tokens").asInt()).isPositive();
    }
    assertThat(client.post("/v1/rerank", "{\"query\":\"q\"}").status()).isEqualTo(400);
    assertThat(client.post("/v1/rerank", "{\"query\":\"q\",\"documents\":[1]}").status()).isEqualTo(400);
  }

  @Test
  void scorePairsOneAgainstManyOrPairwise() throws Exception {
    SimClient.Response many = client.post("/score", "{\"model\":\"test-model\",\"text_1\":\"cats\","
        + "\"text_2\":[\"cats\",\"dogs\"]}");
    assertThat(many.status()).as(many.body()).isEqualTo(200);
    assertThat(many.json().get("object").asText()).isEqualTo("list");
    JsonNode data = many.json().get("data");
    assertThat(data).hasSize(2);
    assertThat(data.get(0).get("object").asText()).isEqualTo("score");
    assertThat(data.get(0).get("score").asDouble()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(data.get(1).get("score").asDouble()).isBetween(0.0, 1.0);
    SimClient.Response pairwise = client.post("/v1/score", "{\"text_1\":[\"a\",\"b\"],\"text_2\":[\"a\",\"c\"]}");
    assertThat(pairwise.json().get("data")).hasSize(2);
    assertThat(client.post("/v1/score", "{\"text_1\":[\"a\",\"b\"],\"text_2\":[\"a\",\"b\",\"c\"]}").status())
        .isEqualTo(400);
  }

  @Test
  void embeddingsOfNoInputAreA400NotAWait() throws Exception {
    SimClient.Response empty = client.post("/v1/embeddings", "{\"model\":\"test-model\",\"input\":[]}");
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.json().at("/error/message").asText()).isEqualTo("'input' must not be empty.");
    assertThat(empty.json().at("/error/param").asText()).isEqualTo("input");
  }

  @Test
  void detokenizeReadsTokenIdsBack() throws Exception {
    SimClient.Response r = client.post("/detokenize", "{\"model\":\"test-model\",\"tokens\":[5,17]}");
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.json().get("prompt").asText()).isEqualTo("t5 t17");
    assertThat(client.post("/detokenize", "{\"tokens\":[\"x\"]}").status()).isEqualTo(400);
  }

  @Test
  void poolingRequestsAreChargedTheirPrefill() throws Exception {
    try (Simulator slow = Simulator.start(SimulatorConfig.of("m").host("127.0.0.1").port(0).seed(3)
        .prefillOverhead(Duration.ofMillis(300)).interTokenLatency(Duration.ofMillis(1)))) {
      SimClient c = new SimClient(slow.port());
      for (String[] request : new String[][] {
          {"/v1/embeddings", "{\"input\":[\"one two\",\"three\"]}"},
          {"/v1/rerank", "{\"query\":\"q\",\"documents\":[\"a\",\"b\"]}"},
          {"/score", "{\"text_1\":\"q\",\"text_2\":\"a\"}"}}) {
        long start = System.nanoTime();
        SimClient.Response r = c.post(request[0], request[1]);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(seconds).as(request[0] + " waits for its prefill").isGreaterThanOrEqualTo(0.25);
      }
    }
  }
}
