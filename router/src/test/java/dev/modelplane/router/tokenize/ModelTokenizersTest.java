package dev.modelplane.router.tokenize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.common.tokenizer.ChatMessage;
import dev.modelplane.common.tokenizer.ModelTokenizer;
import dev.modelplane.common.tokenizer.TokenizerCache;
import dev.modelplane.common.tokenizer.WordTokenizer;
import dev.modelplane.router.plugin.PromptTokenizer;
import dev.modelplane.router.plugin.PromptTokenizer.Chat;
import dev.modelplane.router.plugin.PromptTokenizer.Completion;
import dev.modelplane.testsupport.TestTokenizers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class ModelTokenizersTest {
  private static final TokenizerCache CACHE = new TokenizerCache(4);

  private static Chat chat(String json) {
    return new Chat(json.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void withoutFlagsNoModelIsKnown() {
    assertThat(ModelTokenizers.parse(List.of(), CACHE)).isSameAs(PromptTokenizer.NONE);
  }

  @Test
  void aModelsOwnTokenizerComesBeforeTheOneForEveryModel() {
    String tiny = TestTokenizers.tinyBpe().toString();
    PromptTokenizer t = ModelTokenizers.parse(List.of("word", "llama=" + tiny), CACHE);
    ModelTokenizer hf = CACHE.get(TestTokenizers.tinyBpe());
    assertThat(t.tokenize("llama", new Completion("Hello world"))).containsExactly(hf.encode("Hello world", true));
    assertThat(t.tokenize("other", new Completion("Hello world")))
        .containsExactly(WordTokenizer.INSTANCE.encode("Hello world", true));
    assertThat(ModelTokenizers.parse(List.of("llama=word"), CACHE).tokenize("other", new Completion("x"))).isNull();
  }

  @Test
  void aChatIsRenderedByTheModelsTemplateAndEncodedWithoutAddingBosAgain() {
    PromptTokenizer t = ModelTokenizers.parse(List.of(TestTokenizers.tinyBpe().toString()), CACHE);
    ModelTokenizer hf = CACHE.get(TestTokenizers.tinyBpe());
    List<ChatMessage> messages = List.of(new ChatMessage("system", "Be brief."), new ChatMessage("user", "Hi\nthere"));
    String body = """
        {"model": "m", "messages": [{"role": "system", "content": "Be brief."},
         {"role": "user", "content": [{"type": "text", "text": "Hi"}, {"type": "image_url", "image_url": {}},
                                      {"type": "text", "text": "there"}]}]}""";
    assertThat(t.tokenize("m", chat(body))).containsExactly(hf.encodeChat(messages));
    String noPrompt = body.replace("\"model\": \"m\",", "\"model\": \"m\", \"add_generation_prompt\": false,");
    assertThat(t.tokenize("m", chat(noPrompt))).containsExactly(hf.encode(hf.renderChat(messages, false), false));
  }

  @Test
  void aPromptThatCannotBeRenderedGivesNoTokens() {
    PromptTokenizer t = ModelTokenizers.parse(List.of("word"), CACHE);
    assertThat(t.tokenize("m", chat("{\"messages\": []}"))).isNull();
    assertThat(t.tokenize("m", chat("not json"))).isNull();
    assertThat(t.tokenize("m", chat("{\"messages\": [{\"content\": \"no role\"}]}"))).isNull();
    String user = "\"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]";
    assertThat(t.tokenize("m", chat("{" + user + "}"))).isNotNull();
    assertThat(t.tokenize("m", chat("{" + user + ", \"tools\": []}"))).as("no tools given").isNotNull();
    assertThat(t.tokenize("m", chat("{" + user + ", \"tools\": [{\"type\": \"function\"}]}")))
        .as("tools the template would render").isNull();
    assertThat(t.tokenize("m", chat("{" + user + ", \"chat_template_kwargs\": {\"enable_thinking\": false}}")))
        .isNull();
  }

  @Test
  void mistakesInTheFlagStopTheRouterWithTheReason() {
    assertThatThrownBy(() -> ModelTokenizers.parse(List.of("m=/no/such/dir"), CACHE))
        .hasMessage("--tokenizer m=/no/such/dir: /no/such/dir does not exist");
    assertThatThrownBy(() -> ModelTokenizers.parse(List.of("=word"), CACHE))
        .hasMessageContaining("--tokenizer =word: expected MODEL=SOURCE or SOURCE");
    assertThatThrownBy(() -> ModelTokenizers.parse(List.of("m=word", "m=word"), CACHE))
        .hasMessageContaining("model m is given twice");
    assertThatThrownBy(() -> ModelTokenizers.parse(List.of("word", "word"), CACHE))
        .hasMessageContaining("a tokenizer for every model is given twice");
  }
}
