package dev.modelplane.router.plugin;

/**
 * The token ids a model server computes for a request's prompt, for plugins that must name the server's KV-cache
 * blocks exactly ({@code precise-prefix-cache-scorer}). An implementation has to reproduce the server's tokenizer
 * and, for chat requests, its chat template: a single differing token shifts every block after it.
 *
 * <p>Implementations must be thread-safe: scheduling threads call them concurrently.
 */
@FunctionalInterface
public interface PromptTokenizer {
  /** Knows no model: plugins that need tokens fall back to what they can do without. */
  PromptTokenizer NONE = (model, prompt) -> null;

  /** What to tokenize. */
  sealed interface Prompt {
  }

  /**
   * A completions request's prompt.
   *
   * @param text the prompt text ({@code prompt} of {@code /v1/completions})
   */
  record Completion(String text) implements Prompt {
  }

  /**
   * A chat request, tokenized as the server renders it: its chat template over {@code messages}, with the body's
   * {@code tools}, {@code add_generation_prompt} (true when absent), {@code continue_final_message} and
   * {@code chat_template_kwargs}.
   *
   * @param requestJson the request body as received (a JSON object)
   */
  record Chat(byte[] requestJson) implements Prompt {
  }

  /**
   * The prompt's token ids as the server serving {@code model} computes them, or null when this tokenizer does not
   * know the model or cannot render the prompt.
   *
   * @param model the model the request is routed as (after rewrites); for a LoRA request, the adapter's name
   */
  int[] tokenize(String model, Prompt prompt);
}
