package dev.modelplane.common.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.testsupport.TestTokenizers;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Java side gives the ids Python's Hugging Face {@code tokenizers} gives and the prompts transformers' Jinja2
 * renders, for the tiny Llama-3-like tokenizer (vectors.json, written by hack/tokenizers/train-tiny.sh).
 */
class HfTokenizerParityTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static HfTokenizer tokenizer;
  private static JsonNode vectors;

  @BeforeAll
  static void load() throws IOException {
    Path dir = TestTokenizers.tinyBpe();
    tokenizer = HfTokenizer.load(dir);
    vectors = JSON.readTree(dir.resolve("vectors.json").toFile());
  }

  @AfterAll
  static void close() {
    tokenizer.close();
  }

  @Test
  void idsOfAFewTextsAreThoseRecordedFromPython() {
    // Recorded from Python (tokenizers 0.21.0): BOS is 1268, "<|eot_id|>" 1272.
    assertThat(tokenizer.encode("Hello world", true)).containsExactly(1268, 1245, 860);
    assertThat(tokenizer.encode("Hello world", false)).containsExactly(1245, 860);
    assertThat(tokenizer.tokenize("Hello world", true).tokens()).containsExactly("<|begin_of_text|>", "Hello",
        "Ġworld");
    assertThat(tokenizer.encode("<|begin_of_text|>hi<|eot_id|> x", false)).containsExactly(1268, 715, 1272, 1014);
  }

  @Test
  void everyRecordedTextGivesPythonsIdsAndTokens() {
    assertThat(vectors.get("texts")).hasSizeGreaterThan(10);
    for (JsonNode v : vectors.get("texts")) {
      String text = v.get("text").asText();
      boolean special = v.get("add_special_tokens").asBoolean();
      Tokens t = tokenizer.tokenize(text, special);
      assertThat(t.ids()).as("ids of %s (special tokens %s)", text, special).containsExactly(ints(v.get("ids")));
      assertThat(t.tokens()).as("tokens of %s", text).isEqualTo(strings(v.get("tokens")));
      assertThat(String.join("", t.pieces())).as("pieces of %s", text).isEqualTo(text);
    }
  }

  @Test
  void aLongTextIsNotTruncated() {
    JsonNode longest = null;
    for (JsonNode v : vectors.get("texts")) {
      if (longest == null || v.get("ids").size() > longest.get("ids").size()) {
        longest = v;
      }
    }
    assertThat(longest.get("ids").size()).isGreaterThan(512);
    assertThat(tokenizer.encode(longest.get("text").asText(), true)).hasSize(longest.get("ids").size());
  }

  @Test
  void chatsRenderAsTransformersRendersThemAndEncodeWithoutASecondBos() {
    assertThat(vectors.get("chats")).hasSizeGreaterThan(3);
    for (JsonNode v : vectors.get("chats")) {
      if (v.has("tools")) {
        continue;
      }
      List<ChatMessage> messages = messages(v.get("messages"));
      boolean generation = v.get("add_generation_prompt").asBoolean();
      String prompt = tokenizer.renderChat(messages, generation);
      assertThat(prompt).isEqualTo(v.get("prompt").asText());
      assertThat(tokenizer.encode(prompt, false)).as("ids of %s", prompt).containsExactly(ints(v.get("ids")));
      if (generation) {
        assertThat(tokenizer.encodeChat(messages)).containsExactly(ints(v.get("ids")));
      }
    }
    int[] first = tokenizer.encodeChat(messages(vectors.get("chats").get(0).get("messages")));
    assertThat(first[0]).isEqualTo(1268);
    assertThat(first[1]).as("the template's BOS only").isNotEqualTo(1268);
  }

  @Test
  void toolsAndOtherVariablesRenderThroughTheTemplateAsInPython() {
    int checked = 0;
    for (JsonNode v : vectors.get("chats")) {
      if (v.has("tools")) {
        Map<String, Object> variables = variables(v);
        variables.put("bos_token", "<|begin_of_text|>");
        variables.put("eos_token", "<|eot_id|>");
        String prompt = tokenizer.chatTemplate().render(variables);
        assertThat(prompt).isEqualTo(v.get("prompt").asText());
        assertThat(tokenizer.encode(prompt, false)).containsExactly(ints(v.get("ids")));
        checked++;
      }
    }
    assertThat(checked).isPositive();
  }

  @Test
  void templatesUsingJinjaIdiomsRenderTheSameTextAsJinja2() {
    assertThat(vectors.get("templates")).isNotEmpty();
    for (JsonNode v : vectors.get("templates")) {
      ChatTemplate template = ChatTemplate.of(v.get("template").asText(), v.get("name").asText());
      assertThat(template.render(variables(v.get("variables")))).as(v.get("name").asText())
          .isEqualTo(v.get("output").asText());
    }
  }

  @Test
  void aTemplateThatRaisesFailsWithPythonsMessageAndTheModelDirectory() {
    JsonNode v = vectors.get("failing_chats").get(0);
    assertThatThrownBy(() -> tokenizer.renderChat(messages(v.get("messages")), true))
        .isInstanceOf(ChatTemplateException.class)
        .hasMessageContaining(v.get("error").asText())
        .hasMessageContaining(TestTokenizers.tinyBpe().toString());
  }

  static List<ChatMessage> messages(JsonNode list) {
    List<ChatMessage> out = new ArrayList<>();
    list.forEach(m -> out.add(new ChatMessage(m.get("role").asText(), m.get("content").asText())));
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> variables(JsonNode node) {
    return JSON.convertValue(node, Map.class);
  }

  private static int[] ints(JsonNode array) {
    int[] out = new int[array.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = array.get(i).asInt();
    }
    return out;
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(n -> out.add(n.asText()));
    return out;
  }
}
