package dev.modelplane.common.tokenizer;

import java.util.Objects;

/**
 * One chat message as a chat template sees it.
 *
 * @param role {@code system}, {@code user}, {@code assistant}, …
 * @param content its text
 */
public record ChatMessage(String role, String content) {
  /** Checks that neither part is null. */
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }
}
