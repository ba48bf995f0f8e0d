package dev.modelplane.common.tokenizer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A deterministic stand-in for a real tokenizer, needing no model files (the simulator's default, documented in
 * docs/simulator.md). A token is a run of letters, digits and underscores, or one other non-space character,
 * together with the whitespace that follows it. This is the same rule llm-d-inference-sim uses for model names it
 * cannot find on a hub, so both simulators count the same prompt alike; English prose comes out near 1.3 tokens per
 * word, close to Llama 3's tokenizer. A token's id is the 32-bit FNV-1a hash of its text modulo {@link #VOCAB_SIZE},
 * so equal text always gives equal ids (which the prefix cache relies on). There are no special tokens: encoding
 * with or without them is the same.
 */
public final class WordTokenizer implements ModelTokenizer {
  /** Llama 3's vocabulary size. */
  public static final int VOCAB_SIZE = 128_256;

  /** The one instance; the tokenizer has no state. */
  public static final WordTokenizer INSTANCE = new WordTokenizer();

  private WordTokenizer() {
  }

  /** Splits {@code text} into token texts. */
  public static List<String> split(String text) {
    List<String> out = new ArrayList<>();
    int n = text.length();
    int i = 0;
    // Leading whitespace belongs to no token (as in the peer's rule).
    while (i < n && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    while (i < n) {
      int start = i;
      int cp = text.codePointAt(i);
      if (isWord(cp)) {
        while (i < n && isWord(text.codePointAt(i))) {
          i += Character.charCount(text.codePointAt(i));
        }
      } else {
        i += Character.charCount(cp);
      }
      while (i < n && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      out.add(text.substring(start, i));
    }
    return out;
  }

  private static boolean isWord(int cp) {
    return cp == '_' || Character.isLetterOrDigit(cp);
  }

  /** The id of one token text. */
  public static int id(String tokenText) {
    int h = 0x811c9dc5;
    for (byte b : tokenText.getBytes(StandardCharsets.UTF_8)) {
      h ^= b & 0xff;
      h *= 0x01000193;
    }
    return Integer.remainderUnsigned(h, VOCAB_SIZE);
  }

  @Override
  public String name() {
    return "word";
  }

  /**
   * The ids alone, as {@link #tokenize} gives them, without making a string per token: the simulator encodes every
   * prompt, and a capacity plan encodes hundreds of thousands.
   */
  @Override
  public int[] encode(String text, boolean addSpecialTokens) {
    int n = text.length();
    int[] ids = new int[Math.max(4, n / 4)];
    int count = 0;
    int i = 0;
    while (i < n && Character.isWhitespace(text.charAt(i))) {
      i++;
    }
    while (i < n) {
      int start = i;
      int cp = text.codePointAt(i);
      if (isWord(cp)) {
        while (i < n && isWord(text.codePointAt(i))) {
          i += Character.charCount(text.codePointAt(i));
        }
      } else {
        i += Character.charCount(cp);
      }
      while (i < n && Character.isWhitespace(text.charAt(i))) {
        i++;
      }
      if (count == ids.length) {
        ids = java.util.Arrays.copyOf(ids, count * 2);
      }
      ids[count++] = id(text, start, i);
    }
    return java.util.Arrays.copyOf(ids, count);
  }

  /** {@link #id(String)} of {@code text[from, to)}: FNV-1a over its UTF-8 bytes, encoded here. */
  private static int id(String text, int from, int to) {
    int h = 0x811c9dc5;
    for (int i = from; i < to; i++) {
      char c = text.charAt(i);
      int cp = c;
      if (Character.isHighSurrogate(c) && i + 1 < to && Character.isLowSurrogate(text.charAt(i + 1))) {
        cp = Character.toCodePoint(c, text.charAt(++i));
      } else if (Character.isSurrogate(c)) {
        cp = '?'; // what String.getBytes writes for an unpaired surrogate
      }
      if (cp < 0x80) {
        h = (h ^ cp) * 0x01000193;
      } else if (cp < 0x800) {
        h = (h ^ (0xc0 | cp >> 6)) * 0x01000193;
        h = (h ^ (0x80 | cp & 0x3f)) * 0x01000193;
      } else if (cp < 0x10000) {
        h = (h ^ (0xe0 | cp >> 12)) * 0x01000193;
        h = (h ^ (0x80 | cp >> 6 & 0x3f)) * 0x01000193;
        h = (h ^ (0x80 | cp & 0x3f)) * 0x01000193;
      } else {
        h = (h ^ (0xf0 | cp >> 18)) * 0x01000193;
        h = (h ^ (0x80 | cp >> 12 & 0x3f)) * 0x01000193;
        h = (h ^ (0x80 | cp >> 6 & 0x3f)) * 0x01000193;
        h = (h ^ (0x80 | cp & 0x3f)) * 0x01000193;
      }
    }
    return Integer.remainderUnsigned(h, VOCAB_SIZE);
  }

  /** The tokens of {@code text}; a token's vocabulary spelling and its piece of text are the same string. */
  @Override
  public Tokens tokenize(String text, boolean addSpecialTokens) {
    List<String> texts = split(text);
    int[] ids = new int[texts.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = id(texts.get(i));
    }
    return new Tokens(ids, texts, texts);
  }

  /**
   * Renders chat messages as one prompt, with role markers that are tokens themselves: {@code <|role|> content }
   * per message, then {@code <|assistant|> } when the generation prompt is asked for.
   */
  @Override
  public String renderChat(List<ChatMessage> messages, boolean addGenerationPrompt) {
    StringBuilder sb = new StringBuilder();
    for (ChatMessage m : messages) {
      sb.append("<|").append(m.role()).append("|> ").append(m.content()).append(' ');
    }
    if (addGenerationPrompt) {
      sb.append("<|assistant|> ");
    }
    return sb.toString();
  }
}
