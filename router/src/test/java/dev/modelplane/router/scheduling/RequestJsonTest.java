package dev.modelplane.router.scheduling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The streaming request reader: its limits, and what it extracts from valid bodies of any size. */
class RequestJsonTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** {@code {"model":"m","messages":[{},{},…]}} with {@code n} empty objects: about 3 bytes an element. */
  static byte[] emptyObjects(int n) {
    StringBuilder sb = new StringBuilder(n * 3 + 40).append("{\"model\":\"m\",\"messages\":[");
    for (int i = 0; i < n; i++) {
      sb.append(i == 0 ? "{}" : ",{}");
    }
    return bytes(sb.append("]}").toString());
  }

  @Test
  void elementLimitCountsArrayElementsAndObjectMembersOverTheWholeDocument() throws Exception {
    RequestJson json = new RequestJson(new RequestJson.Limits(16, 10, 100));
    // model, messages (2 members) + 8 elements = 10: at the limit
    assertThat(json.scan(emptyObjects(8)).messagesNonEmpty()).isTrue();
    assertThatThrownBy(() -> json.scan(emptyObjects(9)))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("more than 10 JSON elements");
    // members of nested objects count too
    assertThatThrownBy(() -> json.scan(bytes("{\"a\":{\"b\":1,\"c\":2,\"d\":3,\"e\":4,\"f\":5,\"g\":6,\"h\":7,"
        + "\"i\":8,\"j\":9,\"k\":10}}"))).isInstanceOf(RequestJson.Refused.class);
  }

  @Test
  void hostileBodyOfEmptyObjectsIsRefusedByTheDefaultLimits() {
    byte[] hostile = emptyObjects(32 * 1024 * 1024 / 3 + 1); // a little over 32 MiB
    assertThat(hostile.length).isGreaterThan(32 * 1024 * 1024);
    assertThatThrownBy(() -> RequestJson.defaults().scan(hostile))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("more than 4194304 JSON elements");
  }

  @Test
  void theDefaultElementLimitFitsAnEmbeddingsBatchOf2048Times512TokenIdsAndAnyDefaultSizedBody() throws Exception {
    StringBuilder sb = new StringBuilder(7 << 20).append("{\"model\":\"e\",\"input\":[");
    for (int i = 0; i < 2048; i++) {
      sb.append(i == 0 ? "[" : ",[");
      for (int j = 0; j < 512; j++) {
        sb.append(j == 0 ? "" : ",").append(10_000 + (i * 512 + j) % 90_000);
      }
      sb.append(']');
    }
    byte[] batch = bytes(sb.append("]}").toString());
    assertThat(batch.length).isLessThan(8 * 1024 * 1024);
    assertThat(RequestJson.defaults().scan(batch).inputPresent()).isTrue(); // 1,050,626 elements
    // 8 MiB of "0,": the most elements a default-sized body can hold
    StringBuilder zeros = new StringBuilder(8 << 20).append("{\"model\":\"e\",\"input\":[0");
    while (zeros.length() < 8 * 1024 * 1024 - 4) {
      zeros.append(",0");
    }
    assertThat(RequestJson.defaults().scan(bytes(zeros.append("]}").toString())).inputPresent()).isTrue();
  }

  @Test
  void depthLimitRefusesDeeperNesting() throws Exception {
    RequestJson json = new RequestJson(new RequestJson.Limits(4, 1000, 100));
    assertThat(json.scan(bytes("{\"a\":[[{\"b\":1}]]}")).object()).isTrue(); // depth 4
    assertThatThrownBy(() -> json.scan(bytes("{\"a\":[[[{\"b\":1}]]]}")))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("nesting depth");
    // deep nesting never recurses: 100,000 levels are refused, not a stack overflow
    assertThatThrownBy(() -> RequestJson.defaults().scan(bytes("{\"a\":" + "[".repeat(100_000))))
        .isInstanceOf(RequestJson.Refused.class);
  }

  @Test
  void stringLimitCoversValuesAndKeys() throws Exception {
    RequestJson json = new RequestJson(new RequestJson.Limits(8, 1000, 10));
    assertThat(json.scan(bytes("{\"model\":\"0123456789\"}")).model()).isEqualTo("0123456789");
    assertThatThrownBy(() -> json.scan(bytes("{\"model\":\"0123456789a\"}")))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("String value length");
    assertThatThrownBy(() -> json.scan(bytes("{\"0123456789a\":1}"))).isInstanceOf(RequestJson.Refused.class);
  }

  @Test
  void stringLimitCoversStringsTheScanDoesNotRead() throws Exception {
    RequestJson json = new RequestJson(new RequestJson.Limits(8, 1000, 10));
    assertThat(json.scan(bytes("{\"x\":\"0123456789\",\"messages\":[{\"content\":\"0123456789\"}]}")).object())
        .isTrue();
    assertThatThrownBy(() -> json.scan(bytes("{\"messages\":[{\"content\":\"0123456789a\"}]}")))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("String value length (11)");
    assertThatThrownBy(() -> json.scan(bytes("{\"x\":\"0123456789a\"}")))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("String value length (11)");
    // past Jackson's first buffer too
    RequestJson wider = new RequestJson(new RequestJson.Limits(8, 1000, 100_000));
    assertThatThrownBy(() -> wider.scan(bytes("{\"messages\":[\"" + "x".repeat(300_000) + "\"]}")))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("String value length");
  }

  @Test
  void aModelNameLongerThan1024CharsIsRefusedNamingTheField() throws Exception {
    String longest = "m".repeat(RequestJson.MAX_MODEL_LENGTH);
    assertThat(RequestJson.defaults().scan(bytes("{\"model\":\"" + longest + "\"}")).model()).isEqualTo(longest);
    assertThatThrownBy(() -> RequestJson.defaults().scan(bytes("{\"model\":\"" + longest + "m\"}")))
        .isInstanceOf(RequestJson.Refused.class).hasMessage("'model' is longer than 1024 characters");
    // one of 8 MB, within the string limit
    assertThatThrownBy(() -> RequestJson.defaults().scan(bytes("{\"model\":\"" + "m".repeat(8_000_000) + "\"}")))
        .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("'model'");
  }

  @Test
  void numbersLongerThan100CharsAreRefusedAndReadingABodyAgainKeepsIntegersAsTheirDigits() throws Exception {
    String digits = "9".repeat(RequestJson.MAX_NUMBER_LENGTH);
    String fraction = "0." + "1".repeat(RequestJson.MAX_NUMBER_LENGTH - 2);
    byte[] ok = bytes("{\"model\":\"m\",\"input\":[" + digits + ",-" + digits.substring(1) + "," + fraction
        + ",1e300,-0,50256]}");
    assertThat(RequestJson.defaults().scan(ok).inputPresent()).isTrue();
    assertThat(new String(AcceptedJson.member(ok, "input"), StandardCharsets.UTF_8))
        .isEqualTo(JSON.writeValueAsString(JSON.readTree(ok).get("input")));
    assertThat(JSON.readTree(AcceptedJson.withModel(ok, "t")).get("input")).isEqualTo(JSON.readTree(ok).get("input"));
    for (String tooLong : new String[] {digits + "9", "-" + digits, fraction + "1", "1" + fraction}) {
      byte[] body = bytes("{\"model\":\"m\",\"input\":[" + tooLong + "]}");
      assertThatThrownBy(() -> RequestJson.defaults().scan(body)).as(tooLong)
          .isInstanceOf(RequestJson.Refused.class).hasMessageContaining("Number value length");
    }
    // reading a body again is not more permissive than the scan (Jackson's limit, in digits)
    byte[] body = bytes("{\"model\":\"m\",\"input\":[" + digits + "9]}");
    assertThatThrownBy(() -> AcceptedJson.member(body, "input")).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> AcceptedJson.withModel(body, "t")).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void malformedAndNonObjectBodiesAreRefusedWithTheParsersMessage() {
    assertThatThrownBy(() -> RequestJson.defaults().scan(new byte[0])).hasMessage("empty body");
    assertThatThrownBy(() -> RequestJson.defaults().scan(bytes("[1,2]"))).hasMessage("expected a JSON object");
    assertThatThrownBy(() -> RequestJson.defaults().scan(bytes("{\"model\":"))).isInstanceOf(
        RequestJson.Refused.class).hasMessageContaining("end-of-input");
  }

  @Test
  void largeValidChatParsesAndItsPrefixInputIsTheMessagesJson() throws Exception {
    StringBuilder sb = new StringBuilder("{\"model\":\"m\",\"stream\":true,\"cache_salt\":\"s\",\"max_tokens\":7,"
        + "\"messages\":[");
    for (int i = 0; i < 10_000; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"role\":\"user\",\"content\":\"message ").append(i).append("\"}");
    }
    String big = "x".repeat(1 << 20);
    sb.append(",{\"role\":\"user\",\"content\":\"").append(big).append("\"}]}");
    byte[] body = bytes(sb.toString());
    RequestJson.Fields f = RequestJson.defaults().scan(body);
    assertThat(f.model()).isEqualTo("m");
    assertThat(f.stream()).isTrue();
    assertThat(f.cacheSalt()).isEqualTo("s");
    assertThat(f.maxTokens()).isEqualTo(7);
    LlmRequestBody parsed = new LlmRequestBody(LlmRequestBody.Api.CHAT_COMPLETIONS, body, f);
    JsonNode tree = JSON.readTree(body);
    assertThat(parsed.userInputBytes()).isEqualTo(JSON.writeValueAsBytes(tree.get("messages")));
    assertThat(parsed.maxOutputTokens()).isEqualTo(7);
    parsed.dropUserInput();
    assertThat(parsed.userInputBytes()).isEqualTo(JSON.writeValueAsBytes(tree.get("messages")));
  }

  @Test
  void modelRewriteStreamsTheBodyAndKeepsEverythingElse() throws Exception {
    byte[] body = bytes("{\"model\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":\"hi \\u00e9\"}],"
        + "\"temperature\":0.5,\"n\":1,\"x\":{\"model\":\"nested stays\"}}");
    byte[] out = AcceptedJson.withModel(body, "b");
    JsonNode expected = JSON.readTree(body);
    ((com.fasterxml.jackson.databind.node.ObjectNode) expected).put("model", "b");
    assertThat(JSON.readTree(out)).isEqualTo(expected);
    assertThat(new String(out, StandardCharsets.UTF_8)).isEqualTo(JSON.writeValueAsString(expected));
  }

  @Test
  void completionsPromptTextAndResponsesInputMatchTheTreeReading() throws Exception {
    byte[] prompt = bytes("{\"model\":\"m\",\"prompt\":[\"a\",1,{\"x\":[\"skip\"]},\"b\"]}");
    LlmRequestBody p = new LlmRequestBody(LlmRequestBody.Api.COMPLETIONS, prompt,
        RequestJson.defaults().scan(prompt));
    assertThat(new String(p.userInputBytes(), StandardCharsets.UTF_8)).isEqualTo("a b");
    byte[] responses = bytes("{\"model\":\"m\",\"instructions\":\"be brief\",\"tools\":null,\"input\":[1.5e3,2]}");
    LlmRequestBody r = new LlmRequestBody(LlmRequestBody.Api.RESPONSES, responses,
        RequestJson.defaults().scan(responses));
    assertThat(new String(r.userInputBytes(), StandardCharsets.UTF_8))
        .isEqualTo("[{\"instructions\":\"be brief\"},{\"input\":[1500.0,2]}]");
  }
}
