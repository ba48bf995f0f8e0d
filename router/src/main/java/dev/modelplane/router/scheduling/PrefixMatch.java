package dev.modelplane.router.scheduling;

/**
 * How much of the request's prompt an endpoint is believed to hold in its KV cache.
 *
 * @param matchBlocks length of the longest cached prefix, in blocks
 * @param totalBlocks blocks in the (truncated) prompt
 * @param blockSizeTokens tokens per block used for hashing
 */
public record PrefixMatch(int matchBlocks, int totalBlocks, int blockSizeTokens) {
  public static final PrefixMatch NONE = new PrefixMatch(0, 0, 0);
}
