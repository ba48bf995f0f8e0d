package dev.modelplane.common.tokenizer;

import java.util.List;

/**
 * A model's tokenizer as the model server applies it: text to token ids, and chat messages to the prompt text the
 * engine tokenizes. Whoever hashes prompt tokens for the prefix cache (the router, the simulator) must count exactly
 * the tokens the model server counts, so both sides go through one of these.
 *
 * <p>Special tokens follow vLLM: a completion prompt is encoded with {@code addSpecialTokens} (the tokenizer's
 * post-processor adds BOS where the model wants it), a rendered chat prompt without, because the chat template has
 * already written BOS into the text. Implementations are safe for concurrent use.
 */
public interface ModelTokenizer {
  /** What this tokenizer is, for logs and error messages: {@code word} or the path it was loaded from. */
  String name();

  /**
   * Tokenizes {@code text}; special tokens spelled out in the text are matched either way, {@code addSpecialTokens}
   * only decides whether the post-processor adds its own (BOS, EOS).
   */
  Tokens tokenize(String text, boolean addSpecialTokens);

  /** The token ids of {@code text}; see {@link #tokenize}. */
  default int[] encode(String text, boolean addSpecialTokens) {
    return tokenize(text, addSpecialTokens).ids();
  }

  /**
   * The prompt text the model server makes of {@code messages}.
   *
   * @param addGenerationPrompt whether to open the assistant's turn at the end, as a chat completion does
   * @throws ChatTemplateException when the model's chat template is missing, raises or fails to render
   */
  String renderChat(List<ChatMessage> messages, boolean addGenerationPrompt);

  /** The token ids of a chat completion's prompt: rendered with the generation prompt, encoded without BOS again. */
  default int[] encodeChat(List<ChatMessage> messages) {
    return encode(renderChat(messages, true), false);
  }
}
