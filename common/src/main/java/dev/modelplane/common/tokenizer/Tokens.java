package dev.modelplane.common.tokenizer;

import java.util.List;

/**
 * The tokens of one text, index by index.
 *
 * @param ids the token ids
 * @param tokens each token as the vocabulary spells it (what vLLM's {@code /tokenize} returns as
 *     {@code token_strs}: byte-level tokenizers show a leading space as {@code Ġ})
 * @param pieces the part of the input text each token stands for; joined they give the text back. A token added by
 *     the post-processor (BOS) stands for {@code ""}; when a character's bytes are split over several tokens, the
 *     first of them carries the character and the others {@code ""}
 */
public record Tokens(int[] ids, List<String> tokens, List<String> pieces) {
  /** Checks that the three lists line up. */
  public Tokens {
    if (tokens.size() != ids.length || pieces.size() != ids.length) {
      throw new IllegalArgumentException("ids, tokens and pieces differ in length: " + ids.length + ", "
          + tokens.size() + ", " + pieces.size());
    }
    tokens = List.copyOf(tokens);
    pieces = List.copyOf(pieces);
  }

  /** The number of tokens. */
  public int size() {
    return ids.length;
  }
}
