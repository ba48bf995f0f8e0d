package dev.modelplane.router.prefix;

import java.nio.charset.StandardCharsets;

/**
 * Splits a prompt into blocks of {@code blockSizeTokens × 4} bytes and chains their hashes as GIE does:
 * {@code h₀ = xxh64(targetModel ‖ cacheSalt)}, {@code hᵢ = xxh64(blockᵢ ‖ LE64(hᵢ₋₁))}. Each hash thus names its
 * whole prefix, scoped to the model. Input shorter than one block has no hash; a partial tail block is dropped; input
 * longer than {@code maxBlocks} blocks is truncated.
 */
public final class PrefixHasher {
  /** GIE's estimate of characters per token. */
  public static final int AVERAGE_CHARACTERS_PER_TOKEN = 4;
  private static final long[] NONE = new long[0];

  private PrefixHasher() {
  }

  public static long[] hashPrompt(byte[] input, String targetModel, String cacheSalt, int blockSizeTokens,
      int maxBlocks) {
    int blockChars = blockSizeTokens * AVERAGE_CHARACTERS_PER_TOKEN;
    if (blockChars <= 0 || input == null || input.length < blockChars || maxBlocks <= 0) {
      return NONE;
    }
    int length = (int) Math.min(input.length, (long) blockChars * maxBlocks);
    byte[] seed = ((targetModel == null ? "" : targetModel) + (cacheSalt == null ? "" : cacheSalt))
        .getBytes(StandardCharsets.UTF_8);
    long prev = XxHash64.hash(seed);
    int blocks = length / blockChars;
    long[] out = new long[blocks];
    byte[] scratch = new byte[blockChars + 8];
    for (int b = 0; b < blocks; b++) {
      System.arraycopy(input, b * blockChars, scratch, 0, blockChars);
      for (int i = 0; i < 8; i++) {
        scratch[blockChars + i] = (byte) (prev >>> (8 * i));
      }
      prev = XxHash64.hash(scratch, 0, scratch.length);
      out[b] = prev;
    }
    return out;
  }
}
