package dev.modelplane.common.tokenizer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WordTokenizerTest {
  private final ModelTokenizer word = WordTokenizer.INSTANCE;

  @Test
  void splitsWordsAndPunctuationWithTrailingSpace() {
    assertThat(WordTokenizer.split("Hello, world! It's 42.")).containsExactly("Hello", ", ", "world", "! ", "It",
        "'", "s ", "42", ".");
    assertThat(WordTokenizer.split("  leading space is no token")).first().isEqualTo("leading ");
    assertThat(WordTokenizer.split("Zürich 東京🙂")).containsExactly("Zürich ", "東京", "🙂");
    assertThat(WordTokenizer.split(" \t\n")).isEmpty();
  }

  @Test
  void idsAreTheFnv1aHashOfTheTokenTextModuloLlama3sVocabulary() {
    // Golden values: the prefix cache and the router hash these ids, so they must never change.
    Tokens t = word.tokenize("Hello, world! It's 42.", true);
    assertThat(t.ids()).containsExactly(83531, 39409, 41619, 50724, 88880, 123334, 111366, 84611, 36337);
    assertThat(WordTokenizer.id("Zürich ")).isEqualTo(124672);
    assertThat(WordTokenizer.id("🙂")).isEqualTo(4683);
    assertThat(word.encode("same text", true)).containsExactly(word.encode("same text", true));
  }

  @Test
  void hasNoSpecialTokensAndItsTokensAreThePiecesOfTheText() {
    String text = "No BOS here, ever.";
    assertThat(word.encode(text, true)).containsExactly(word.encode(text, false));
    Tokens t = word.tokenize(text, true);
    assertThat(t.tokens()).isEqualTo(t.pieces());
    assertThat(String.join("", t.pieces())).isEqualTo(text);
    assertThat(t.size()).isEqualTo(6);
    assertThat(word.name()).isEqualTo("word");
  }

  @Test
  void rendersChatWithRoleMarkersAndTheAssistantTurnOnRequest() {
    List<ChatMessage> chat = List.of(new ChatMessage("system", "Be terse."), new ChatMessage("user", "Hi"));
    assertThat(word.renderChat(chat, true)).isEqualTo("<|system|> Be terse. <|user|> Hi <|assistant|> ");
    assertThat(word.renderChat(chat, false)).isEqualTo("<|system|> Be terse. <|user|> Hi ");
    assertThat(word.encodeChat(chat)).containsExactly(word.encode("<|system|> Be terse. <|user|> Hi <|assistant|> ",
        false));
  }

  @Test
  void encodingGivesTheIdsOfTheTokensForAnyText() {
    java.util.SplittableRandom r = new java.util.SplittableRandom(3);
    String alphabet = "ab9_ \t\n.,!é日\uD83D\uDE00\uD83D-";
    for (int round = 0; round < 2000; round++) {
      StringBuilder sb = new StringBuilder();
      for (int k = r.nextInt(40); k > 0; k--) {
        sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
      }
      String text = sb.toString();
      assertThat(word.encode(text, false)).as(text).containsExactly(word.tokenize(text, false).ids());
    }
  }
}
