package dev.modelplane.simulator;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Produces the output tokens of a request: in {@code echo} mode the prompt's text again, in {@code random} mode
 * words drawn from a fixed list with a seeded generator. Output is decided up front so the engine only has to
 * count tokens.
 */
final class TextGenerator {
  private static final String[] WORDS = ("the a model serves tokens quickly while the scheduler batches requests "
      + "and the cache keeps shared prefixes warm . latency grows with load , so routing matters ; every step "
      + "decodes one token for each running sequence before new prompts are prefilled in chunks . adapters swap "
      + "in when a batch needs them , and blocks are evicted least recently used first .").split(" ");

  /** The decided output: token texts and why generation stopped. */
  record Output(List<String> tokens, String finishReason) {
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
  static Output generate(String mode, String echoSource, int maxTokens, boolean limited, boolean ignoreEos,
      List<String> stop, SplittableRandom random) {
    List<String> tokens = new ArrayList<>();
    String reason;
    if ("echo".equals(mode)) {
      List<String> src = Tokenizer.split(echoSource);
      if (src.isEmpty()) {
        src = List.of(" ");
      }
      int n = ignoreEos ? maxTokens : Math.min(maxTokens, src.size());
      for (int i = 0; i < n; i++) {
        tokens.add(src.get(i % src.size()));
      }
      reason = n < src.size() || ignoreEos ? "length" : "stop";
    } else {
      int n = ignoreEos ? maxTokens : limited
          ? Math.max(1, Math.min(maxTokens, 1 + random.nextInt(Math.max(1, maxTokens))))
          : unlimitedLength(maxTokens, random);
      for (int i = 0; i < n; i++) {
        tokens.add(WORDS[random.nextInt(WORDS.length)] + " ");
      }
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
            return new Output(kept, "stop");
          }
        }
      }
    }
    return new Output(tokens, reason);
  }
}
