package dev.modelplane.router.request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.LlmRequestBody.Api;
import dev.modelplane.router.scheduling.RequestJson;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Which parser reads which path, and what each one accepts, extracts and refuses. */
class RequestParsersTest {
  private static final RequestParsers PARSERS = RequestParsers.defaults();

  private static LlmRequestBody parse(String path, String body) {
    return parse(path, body, "application/json");
  }

  private static LlmRequestBody parse(String path, String body, String contentType) {
    return PARSERS.forPath(path).parse(body.getBytes(StandardCharsets.UTF_8), contentType, RequestJson.defaults());
  }

  private static String model(String path, LlmRequestBody body) {
    return RequestParsers.model(PARSERS.forPath(path), body);
  }

  private static String input(LlmRequestBody body) {
    return new String(body.userInputBytes(), StandardCharsets.UTF_8);
  }

  private static void refused(String path, String body, String message) {
    assertThatThrownBy(() -> model(path, parse(path, body))).isInstanceOfSatisfying(RouterException.class, e -> {
      assertThat(e.code()).isEqualTo(ErrorCode.BAD_REQUEST);
      assertThat(e.getMessage()).isEqualTo(message);
    });
  }

  @Test
  void theLongestClaimedSuffixWins() {
    assertThat(parse("/v1/chat/completions", "{\"model\":\"m\",\"messages\":[1]}").api())
        .isEqualTo(Api.CHAT_COMPLETIONS);
    assertThat(parse("/v1/completions", "{\"model\":\"m\",\"prompt\":\"p\"}").api()).isEqualTo(Api.COMPLETIONS);
    LlmRequestBody render = parse("/v1/chat/completions/render", "{\"model\":\"m\",\"messages\":[1]}");
    assertThat(render.api()).isEqualTo(Api.CHAT_COMPLETIONS);
    assertThat(render.userInputBytes()).as("a render does not run the model: no prompt to index").isEmpty();
    LlmRequestBody renderIds = parse("/v1/completions/render", "{\"model\":\"m\",\"prompt\":[1,2,3]}");
    assertThat(renderIds.promptTokenIds()).isNull();
    assertThat(parse("/v1/completions", "{\"model\":\"m\",\"prompt\":[1,2,3]}").promptTokenIds())
        .containsExactly(1, 2, 3);
    assertThat(parse("/openai/deployments/x/chat/completions?api-version=1", "{\"model\":\"m\",\"messages\":[1]}")
        .api()).isEqualTo(Api.CHAT_COMPLETIONS);
    assertThat(parse("/v2/rerank/", "{\"query\":\"q\",\"documents\":[]}").api()).isEqualTo(Api.RERANK);
    assertThat(PARSERS.forPath("/v1/messages/count_tokens")).isInstanceOf(PassthroughParser.class);
    assertThat(PARSERS.forPath("/v1/messages/count_tokens").errorShape()).isEqualTo(ErrorShape.ANTHROPIC);
    assertThat(PARSERS.forPath("/v1/threads/t1/messages")).as("not Anthropic's").isSameAs(PassthroughParser.FALLBACK);
    assertThat(PARSERS.forPath("/v1/xcompletions")).as("whole segments only").isSameAs(PassthroughParser.FALLBACK);
    assertThat(PARSERS.forPath("")).isSameAs(PassthroughParser.FALLBACK);
    assertThat(PARSERS.forRequest("GET", "/v1/chat/completions")).isSameAs(PassthroughParser.FALLBACK);
    assertThat(PARSERS.forRequest("DELETE", "/v1/messages")).isSameAs(PassthroughParser.FALLBACK);
    assertThat(PARSERS.forRequest(null, "/v1/messages").errorShape()).isEqualTo(ErrorShape.ANTHROPIC);
    assertThat(PARSERS.errorShape("/v1/messages")).isEqualTo(ErrorShape.ANTHROPIC);
    assertThat(PARSERS.errorShape("/v1/chat/completions")).isEqualTo(ErrorShape.OPENAI);
    for (String anthropic : new String[] {"/v1/messages/batches/b1/results", "/v1/messages/", "/v1/messages?beta=1",
        "/inference-pools/a/b/v1/messages", "/v1/%6Dessages/batches", "/v1/x/../messages"}) {
      assertThat(PARSERS.errorShape(anthropic)).as(anthropic).isEqualTo(ErrorShape.ANTHROPIC);
    }
    for (String openAi : new String[] {"/v1/threads/t1/messages", "/v1/messagesx", "/messages", "/v1/%"}) {
      assertThat(PARSERS.errorShape(openAi)).as(openAi).isEqualTo(ErrorShape.OPENAI);
    }
  }

  @Test
  void openAiApisKeepTheirRequirements() {
    refused("/v1/completions", "{\"model\":\"m\"}", "invalid completions request: must have prompt field");
    refused("/v1/chat/completions", "{\"model\":\"m\",\"messages\":[]}",
        "invalid chat completions request: must have valid messages field");
    refused("/v1/embeddings", "{\"input\":\"x\"}", "model not found in request body");
    refused("/v1/responses", "[1]", "error unmarshaling request body: expected a JSON object");
  }

  @Test
  void anthropicMessagesNeedMessagesAndAModel() {
    LlmRequestBody ok = parse("/v1/messages", "{\"model\":\"claude\",\"max_tokens\":9,\"stream\":true,"
        + "\"system\":\"be brief\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");
    assertThat(ok.api()).isEqualTo(Api.MESSAGES);
    assertThat(model("/v1/messages", ok)).isEqualTo("claude");
    assertThat(ok.stream()).isTrue();
    assertThat(ok.maxOutputTokens()).isEqualTo(9);
    assertThat(input(ok)).as("the system prompt comes first, as the model sees it")
        .isEqualTo("[{\"system\":\"be brief\"},{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}]");
    refused("/v1/messages", "{\"model\":\"m\",\"messages\":[]}",
        "invalid messages request: must have at least one message");
    refused("/v1/messages", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}",
        "model not found in request body");
    LlmRequestBody count = parse("/v1/messages/count_tokens", "{\"messages\":[]}");
    assertThat(count.api()).isEqualTo(Api.PASSTHROUGH);
    assertThat(model("/v1/messages/count_tokens", count)).isEmpty();
  }

  @Test
  void anthropicErrorsHaveAnthropicsShape() {
    assertThat(ErrorShape.ANTHROPIC.body(ErrorCode.BAD_REQUEST, "bad \"x\"")).isEqualTo(
        "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"bad \\\"x\\\"\"}}");
    assertThat(ErrorShape.ANTHROPIC.body(ErrorCode.RESOURCE_EXHAUSTED, "busy")).contains("\"rate_limit_error\"");
    assertThat(ErrorShape.ANTHROPIC.body(ErrorCode.SERVICE_UNAVAILABLE, "busy")).contains("\"overloaded_error\"");
    assertThat(ErrorShape.ANTHROPIC.streamEvent(ErrorCode.GATEWAY_TIMEOUT, "slow")).isEqualTo(
        "event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"api_error\",\"message\":\"slow\"}}\n\n");
    assertThat(ErrorShape.OPENAI.streamEvent(ErrorCode.GATEWAY_TIMEOUT, "slow"))
        .isEqualTo("data: " + OpenAiErrors.body(ErrorCode.GATEWAY_TIMEOUT, "slow") + "\n\n");
  }

  @Test
  void rerankAndScoreHashTheirQueryFirstAndNeedNoModel() {
    LlmRequestBody rerank = parse("/rerank", "{\"query\":\"q\",\"top_n\":1,\"documents\":[\"a\",\"b\"]}");
    assertThat(rerank.api()).isEqualTo(Api.RERANK);
    assertThat(model("/rerank", rerank)).isEmpty();
    assertThat(input(rerank)).isEqualTo("[{\"query\":\"q\"},{\"documents\":[\"a\",\"b\"]}]");
    refused("/v1/rerank", "{\"model\":\"m\",\"query\":\"q\"}",
        "invalid rerank request: must have query and documents fields");
    refused("/v1/rerank", "{\"query\":\"q\",\"documents\":null}",
        "invalid rerank request: must have query and documents fields");

    LlmRequestBody score = parse("/v1/score", "{\"model\":\"m\",\"text_2\":[\"a\"],\"text_1\":\"q\"}");
    assertThat(score.api()).isEqualTo(Api.SCORE);
    assertThat(model("/v1/score", score)).isEqualTo("m");
    assertThat(input(score)).isEqualTo("[{\"text_1\":\"q\"},{\"text_2\":[\"a\"]}]");
    String invalid = "invalid score request: must have queries and documents, queries and items, data_1 and data_2, "
        + "or text_1 and text_2 fields";
    refused("/score", "{\"text_1\":\"q\"}", invalid);
    refused("/score", "{\"queries\":\"q\",\"text_2\":\"a\"}", invalid);
    refused("/score", "{\"data_1\":\"q\",\"data_2\":null}", invalid);
    assertThat(input(parse("/score", "{\"queries\":[\"q\"],\"documents\":[\"a\",\"b\"]}")))
        .isEqualTo("[{\"queries\":[\"q\"]},{\"documents\":[\"a\",\"b\"]}]");
    assertThat(input(parse("/score", "{\"items\":[\"a\"],\"queries\":\"q\"}")))
        .isEqualTo("[{\"queries\":\"q\"},{\"items\":[\"a\"]}]");
    assertThat(input(parse("/v1/score", "{\"data_1\":\"q\",\"data_2\":[\"a\"]}")))
        .isEqualTo("[{\"data_1\":\"q\"},{\"data_2\":[\"a\"]}]");
  }

  @Test
  void tokenizeAndDetokenize() {
    LlmRequestBody prompt = parse("/tokenize", "{\"prompt\":\"hello\"}");
    assertThat(prompt.api()).isEqualTo(Api.TOKENIZE);
    assertThat(input(prompt)).as("tokenizing does not run the model: no prompt to index or charge").isEmpty();
    assertThat(input(parse("/tokenize", "{\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}")))
        .isEmpty();
    refused("/tokenize", "{\"model\":\"m\"}", "invalid tokenize request: must have prompt or messages field");
    refused("/tokenize", "{\"prompt\":null}", "invalid tokenize request: must have prompt or messages field");
    LlmRequestBody empty = parse("/tokenize", "{\"model\":\"m\",\"prompt\":\"\"}");
    assertThat(empty.api()).as("an empty prompt is tokenized, as vLLM does").isEqualTo(Api.TOKENIZE);
    assertThat(empty.userInputBytes()).isEmpty();
    LlmRequestBody detokenize = parse("/detokenize", "{\"model\":\"m\",\"tokens\":[1,2]}");
    assertThat(detokenize.api()).isEqualTo(Api.DETOKENIZE);
    assertThat(detokenize.userInputBytes()).isEmpty();
    refused("/detokenize", "{\"model\":\"m\"}", "invalid detokenize request: must have tokens field");
  }

  @Test
  void audioReadsOnlyTheModelOfItsForm() {
    String form = "--XyZ\r\nContent-Disposition: form-data; name=\"file\"; filename=\"model\"\r\n"
        + "Content-Type: audio/wav\r\n\r\n\r\n--Xy not the end\r\n--XyZ\r\ncontent-disposition: form-data; "
        + "name=\"model\"\r\n\r\nwhisper-1\r\n--XyZ\r\nContent-Disposition: form-data; name=\"language\"\r\n\r\n"
        + "en\r\n--XyZ--\r\n";
    LlmRequestBody audio = parse("/v1/audio/transcriptions", form, "multipart/form-data; boundary=\"XyZ\"");
    assertThat(audio.api()).isEqualTo(Api.AUDIO);
    assertThat(model("/v1/audio/transcriptions", audio)).isEqualTo("whisper-1");
    assertThat(audio.userInputBytes()).isEmpty();
    assertThat(model("/v1/audio/translations",
        parse("/v1/audio/translations", form, "multipart/form-data; boundary=XyZ"))).isEqualTo("whisper-1");
    assertThat(model("/v1/audio/translations", parse("/v1/audio/translations", form.substring(0, 150),
        "multipart/form-data; boundary=XyZ"))).as("a truncated form: no model, not refused").isEmpty();
    assertThat(model("/v1/audio/translations", parse("/v1/audio/translations", "garbage",
        "multipart/form-data; boundary=XyZ"))).isEmpty();
    String longModel = "--b\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n" + "m".repeat(2000)
        + "\r\n--b--\r\n";
    assertThat(model("/v1/audio/translations", parse("/v1/audio/translations", longModel,
        "multipart/form-data; boundary=b"))).as("longer than a model may be").isEmpty();
    for (String value : new String[] {"\u00e9".repeat(1024), "\u00e9".repeat(1025), "m".repeat(8 * 1024 * 1024)}) {
      String part = "--b\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n" + value + "\r\n--b--\r\n";
      String read = AudioRequestParser.formField(part.getBytes(StandardCharsets.UTF_8), "b", "model");
      assertThat(read).as("%d chars", value.length()).isEqualTo(value.length() <= 1024 ? value : null);
    }
    assertThat(AudioRequestParser.boundary("multipart/form-data")).isNull();
    assertThat(AudioRequestParser.boundary("multipart/form-data; boundary=" + "b".repeat(71))).isNull();
  }

  @Test
  void passthroughNeverRefusesAndReadsTheModelWhenItCan() {
    LlmRequestBody json = parse("/v1/images/generations", "{\"model\":\"sd\",\"prompt\":\"cat\",\"stream\":true}");
    assertThat(json.api()).isEqualTo(Api.PASSTHROUGH);
    assertThat(model("/v1/images/generations", json)).isEqualTo("sd");
    assertThat(json.stream()).isTrue();
    assertThat(json.userInputBytes()).as("prefix scorers see no prompt").isEmpty();
    for (String body : new String[] {"", "{", "[1]", "not json", "{\"model\":1}"}) {
      LlmRequestBody b = parse("/v1/unknown", body, null);
      assertThat(model("/v1/unknown", b)).as(body).isEmpty();
      assertThat(b.userInputBytes()).isEmpty();
    }
  }
}
