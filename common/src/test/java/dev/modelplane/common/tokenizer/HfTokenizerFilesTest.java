package dev.modelplane.common.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.testsupport.TestTokenizers;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a model directory or file holds, and the errors a user sees when it holds the wrong thing. */
class HfTokenizerFilesTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<ChatMessage> HI = List.of(new ChatMessage("user", "Hi"));

  @TempDir
  Path dir;

  private Path model() throws IOException {
    return TestTokenizers.copyTinyBpe(dir.resolve("model"));
  }

  private static void editConfig(Path model, java.util.function.Consumer<ObjectNode> edit) throws IOException {
    Path file = model.resolve("tokenizer_config.json");
    ObjectNode config = (ObjectNode) JSON.readTree(file.toFile());
    edit.accept(config);
    JSON.writeValue(file.toFile(), config);
  }

  @Test
  void aMissingPathOrADirectoryWithoutTokenizerJsonIsNamed() throws IOException {
    assertThatThrownBy(() -> HfTokenizer.load(dir.resolve("nowhere")))
        .isInstanceOf(TokenizerException.class)
        .hasMessage("no tokenizer at " + dir.resolve("nowhere") + ": neither a directory nor a file");
    Files.createDirectories(dir.resolve("empty"));
    assertThatThrownBy(() -> HfTokenizer.load(dir.resolve("empty")))
        .isInstanceOf(TokenizerException.class).hasMessage(dir.resolve("empty") + " has no tokenizer.json");
  }

  @Test
  void corruptJsonIsReportedWithTheFileAndWhere() throws IOException {
    Path model = model();
    Files.writeString(model.resolve("tokenizer.json"), "{\"version\": \"1.0\", \"model\": {\"type\": \"BPE\"");
    assertThatThrownBy(() -> HfTokenizer.load(model))
        .isInstanceOf(TokenizerException.class)
        .hasMessageStartingWith("cannot load " + model.resolve("tokenizer.json") + ": ")
        .hasMessageContaining("line 1");
    Path other = TestTokenizers.copyTinyBpe(dir.resolve("other"));
    Files.writeString(other.resolve("tokenizer_config.json"), "{\"chat_template\": ");
    assertThatThrownBy(() -> HfTokenizer.load(other))
        .isInstanceOf(TokenizerException.class)
        .hasMessageStartingWith("cannot read " + other.resolve("tokenizer_config.json") + ": not valid JSON: ")
        .hasMessageContaining("(line 1, column");
    Files.writeString(other.resolve("tokenizer_config.json"), "[1, 2]");
    assertThatThrownBy(() -> HfTokenizer.load(other))
        .isInstanceOf(TokenizerException.class)
        .hasMessage(other.resolve("tokenizer_config.json") + " is not a JSON object");
  }

  @Test
  void aTemplateThatDoesNotRenderNamesTheModelDirectoryButCompletionsStillWork() throws IOException {
    Path model = model();
    editConfig(model, c -> c.put("chat_template", "{% for m in messages %}{{ m.content }}"));
    try (HfTokenizer t = HfTokenizer.load(model)) {
      assertThat(t.encode("Hello world", true)).containsExactly(1268, 1245, 860);
      assertThatThrownBy(() -> t.renderChat(HI, true))
          .isInstanceOf(ChatTemplateException.class)
          .hasMessageStartingWith("the chat template of " + model.resolve("tokenizer_config.json")
              + " does not render: ")
          .hasMessageContaining("endfor");
    }
  }

  @Test
  void aModelWithoutChatTemplateCannotRenderChats() throws IOException {
    Path model = model();
    editConfig(model, c -> c.remove("chat_template"));
    try (HfTokenizer t = HfTokenizer.load(model)) {
      assertThat(t.chatTemplate()).isNull();
      assertThatThrownBy(() -> t.renderChat(HI, true))
          .isInstanceOf(ChatTemplateException.class)
          .hasMessage(model + " has no chat template (neither tokenizer_config.json nor chat_template.jinja gives "
              + "one)");
    }
    try (HfTokenizer file = HfTokenizer.load(model.resolve("tokenizer.json"))) {
      assertThat(file.chatTemplate()).as("a file alone has no configuration").isNull();
      assertThat(file.encode("Hello world", true)).containsExactly(1268, 1245, 860);
      assertThat(file.name()).isEqualTo(model.resolve("tokenizer.json").toString());
    }
  }

  @Test
  void chatTemplateJinjaWinsOverTheConfigAndNamedTemplatesPickDefault() throws IOException {
    Path model = model();
    Files.writeString(model.resolve("chat_template.jinja"), "{{ bos_token }}jinja:{{ messages[0].content }}\n");
    try (HfTokenizer t = HfTokenizer.load(model)) {
      assertThat(t.renderChat(HI, true)).isEqualTo("<|begin_of_text|>jinja:Hi");
    }
    Files.delete(model.resolve("chat_template.jinja"));
    editConfig(model, c -> {
      c.putArray("chat_template").add(JSON.createObjectNode().put("name", "tool_use").put("template", "tools"))
          .add(JSON.createObjectNode().put("name", "default").put("template", "default:{{ eos_token }}"));
      c.putObject("eos_token").put("content", "<|end_of_text|>").put("special", true);
    });
    try (HfTokenizer t = HfTokenizer.load(model)) {
      assertThat(t.renderChat(HI, true)).isEqualTo("default:<|end_of_text|>");
    }
  }

  @Test
  void addBosAndAddEosTokenInTheConfigDecideTheSpecialTokensOfAnEncoding() throws IOException {
    Path model = model();
    editConfig(model, c -> c.put("add_bos_token", false));
    try (HfTokenizer t = HfTokenizer.load(model)) {
      assertThat(t.encode("Hello world", true)).containsExactly(1245, 860);
    }
    editConfig(model, c -> c.put("add_bos_token", true).put("add_eos_token", true));
    try (HfTokenizer t = HfTokenizer.load(model)) {
      Tokens tokens = t.tokenize("Hello world", true);
      assertThat(tokens.ids()).containsExactly(1268, 1245, 860, 1272);
      assertThat(tokens.tokens()).containsExactly("<|begin_of_text|>", "Hello", "Ġworld", "<|eot_id|>");
      assertThat(tokens.pieces()).containsExactly("", "Hello", " world", "");
      assertThat(t.encode("Hello world", false)).containsExactly(1245, 860);
    }
    editConfig(model, c -> c.put("bos_token", "two tokens"));
    assertThatThrownBy(() -> HfTokenizer.load(model))
        .isInstanceOf(TokenizerException.class)
        .hasMessage(model + ": bos_token two tokens is not one token but 4");
    editConfig(model, c -> c.remove("bos_token"));
    assertThatThrownBy(() -> HfTokenizer.load(model))
        .isInstanceOf(TokenizerException.class)
        .hasMessage(model + ": tokenizer_config.json sets add_bos_token but has no bos_token");
  }

  @Test
  void aClosedTokenizerCannotBeUsed() throws IOException {
    HfTokenizer t = HfTokenizer.load(model());
    t.close();
    t.close();
    assertThatThrownBy(() -> t.encode("x", true)).isInstanceOf(RuntimeException.class);
  }
}
