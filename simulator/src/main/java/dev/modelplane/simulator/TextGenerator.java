package dev.modelplane.simulator;

import dev.modelplane.common.tokenizer.ModelTokenizer;
import dev.modelplane.common.tokenizer.Tokens;
import dev.modelplane.common.tokenizer.WordTokenizer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Produces the output tokens of a request: in {@code echo} mode the prompt's text again, in {@code random} mode
 * words drawn from a fixed list with a seeded generator. Output is decided up front so the engine only has to
 * count tokens. Tokens are the tokenizer's: their text is what is streamed, their ids what the KV cache hashes
 * when output blocks fill up. With the word tokenizer a drawn word is one token; with a real one a word may be
 * several, and the output is the first tokens of the drawn words.
 */
final class TextGenerator {
  private static final String[] WORDS = ("the a model serves tokens quickly while the scheduler batches requests "
      + "and the cache keeps shared prefixes warm . latency grows with load , so routing matters ; every step "
      + "decodes one token for each running sequence before new prompts are prefilled in chunks . adapters swap "
      + "in when a batch needs them , and blocks are evicted least recently used first .").split(" ");

  /**
   * The decided output: token texts, their ids, and why generation stopped.
   *
   * @param stopSequence the stop string that ended it, null when none did
   */
  record Output(List<String> tokens, int[] ids, String finishReason, String stopSequence) {
  }

  private TextGenerator() {
  }

  /** A length drawn from N(40, 20), resampled until it lies in [1, max] (clamped after 64 tries). */
  static int unlimitedLength(int max, SplittableRandom random) {
    for (int i = 0; i < 64; i++) {
      double v = random.nextGaussian(40, 20);
      if (v >= 1 && v <= max) {
        return (int) Math.round(v);
      }
    }
    return Math.max(1, Math.min(max, 40));
  }

  /**
   * @param echoSource the text echo mode repeats (the last user message, or the prompt)
   * @param maxTokens the limit from the request (or what the context leaves)
   * @param limited whether the request set the limit; without one a random answer is about 40 tokens long (normal,
   *     standard deviation 20, within the context), as a chat model's usually are, not up to the whole context
   * @param ignoreEos generate exactly {@code maxTokens}
   * @param stop stop strings; the output ends before the first one
   */
  static Output generate(ModelTokenizer tokenizer, String mode, String echoSource, int maxTokens, boolean limited,
      boolean ignoreEos, List<String> stop, SplittableRandom random) {
    List<String> tokens = new ArrayList<>();
    int[] ids;
    String reason;
    if ("echo".equals(mode)) {
      Tokens src = tokenizer.tokenize(echoSource, false);
      if (src.size() == 0) {
        src = space(tokenizer);
      }
      int n = ignoreEos ? maxTokens : Math.min(maxTokens, src.size());
      ids = new int[n];
      for (int i = 0; i < n; i++) {
        tokens.add(src.pieces().get(i % src.size()));
        ids[i] = src.ids()[i % src.size()];
      }
      reason = n < src.size() || ignoreEos ? "length" : "stop";
    } else {
      int n = ignoreEos ? maxTokens : limited
          ? Math.max(1, Math.min(maxTokens, 1 + random.nextInt(Math.max(1, maxTokens))))
          : unlimitedLength(maxTokens, random);
      StringBuilder words = new StringBuilder();
      for (int i = 0; i < n; i++) {
        words.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
      }
      Tokens drawn = tokenizer.tokenize(words.toString(), false);
      n = Math.min(n, drawn.size());
      tokens.addAll(drawn.pieces().subList(0, n));
      ids = Arrays.copyOf(drawn.ids(), n);
      reason = n == maxTokens ? "length" : "stop";
    }
    if (!stop.isEmpty() && !ignoreEos) {
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < tokens.size(); i++) {
        sb.append(tokens.get(i));
        String text = sb.toString();
        for (String s : stop) {
          int at = s.isEmpty() ? -1 : text.indexOf(s);
          if (at >= 0) {
            // Keep the tokens before the stop string; the token holding it is cut where it starts.
            List<String> kept = new ArrayList<>(tokens.subList(0, i));
            int before = text.length() - tokens.get(i).length();
            if (at > before) {
              kept.add(text.substring(before, at));
            }
            if (kept.isEmpty()) {
              kept.add("");
            }
            // The token holding the stop string was generated: it keeps its id, as in vLLM.
            return new Output(kept, Arrays.copyOf(ids, kept.size()), "stop", s);
          }
        }
      }
    }
    return new Output(tokens, ids, reason, null);
  }

  /**
   * The output of an empty echo source: one space, as the tokenizer tokenizes it. The word tokenizer makes no token
   * of whitespace alone, so its id of the text stands in.
   */
  private static Tokens space(ModelTokenizer tokenizer) {
    Tokens t = tokenizer.tokenize(" ", false);
    return t.size() == 1 ? t : new Tokens(new int[] {WordTokenizer.id(" ")}, List.of(" "), List.of(" "));
  }
}
