package dev.modelplane.router.prefix.precise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.router.plugin.PromptTokenizer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for a model's tokenizer: one token per word (the word's number when it is one), and for chat each
 * message's role then its words. Knows the models it is given; counts its calls.
 */
final class WordTokenizer implements PromptTokenizer {
  private static final ObjectMapper JSON = new ObjectMapper();
  final AtomicInteger calls = new AtomicInteger();
  private final List<String> models;

  WordTokenizer(String... models) {
    this.models = List.of(models);
  }

  @Override
  public int[] tokenize(String model, Prompt prompt) {
    calls.incrementAndGet();
    if (!models.contains(model)) {
      return null;
    }
    return switch (prompt) {
      case Completion c -> words(c.text());
      case Chat c -> chat(c.requestJson());
    };
  }

  static int[] words(String text) {
    return text.isBlank() ? new int[0]
        : java.util.Arrays.stream(text.trim().split("\\s+")).mapToInt(WordTokenizer::token).toArray();
  }

  private static int[] chat(byte[] body) {
    try {
      List<Integer> out = new ArrayList<>();
      for (JsonNode m : JSON.readTree(body).path("messages")) {
        out.add(token(m.path("role").asText()));
        for (int t : words(m.path("content").asText())) {
          out.add(t);
        }
      }
      return out.stream().mapToInt(Integer::intValue).toArray();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static int token(String word) {
    return word.chars().allMatch(Character::isDigit) && word.length() < 9 ? Integer.parseInt(word)
        : Math.floorMod(word.hashCode(), 1 << 20);
  }

  /** A prompt of the words {@code from} .. {@code from + n - 1}: its tokens are those numbers. */
  static String prompt(int from, int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "" : " ").append(from + i);
    }
    return b.toString();
  }
}
