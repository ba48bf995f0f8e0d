package dev.modelplane.router.prefix;

import dev.modelplane.router.plugin.PluginParameters;

/**
 * Parameters of the approximate prefix cache, with GIE's names and defaults.
 *
 * @param autoTune take the block size from the first candidate's {@code cache_config_info{block_size}} and the LRU
 *     capacity from its {@code num_gpu_blocks}
 * @param blockSizeTokens tokens per block when not auto-tuned (vLLM's default, 16)
 * @param maxPrefixBlocksToMatch prompt blocks considered at most (256)
 * @param maxPrefixTokensToMatch when positive, overrides the block limit: {@code tokens / blockSize}
 * @param lruCapacityPerServer LRU entries per endpoint when its block count is unknown (31,250)
 */
public record PrefixCacheConfig(boolean autoTune, int blockSizeTokens, int maxPrefixBlocksToMatch,
    int maxPrefixTokensToMatch, int lruCapacityPerServer) {

  public static final PrefixCacheConfig DEFAULT =
      new PrefixCacheConfig(true, 16, 256, 0, PrefixIndex.DEFAULT_LRU_CAPACITY);

  public PrefixCacheConfig {
    if (!autoTune && blockSizeTokens <= 0) {
      throw new IllegalArgumentException(
          "invalid configuration: BlockSizeTokens must be > 0 when AutoTune is disabled (current value: "
              + blockSizeTokens + ")");
    }
    if (maxPrefixTokensToMatch < 0) {
      throw new IllegalArgumentException(
          "invalid configuration: MaxPrefixTokensToMatch must be >= 0 (current value: " + maxPrefixTokensToMatch + ")");
    }
  }

  /**
   * Reads GIE's parameter names ({@code autoTune}, {@code blockSizeTokens}, {@code maxPrefixBlocksToMatch},
   * {@code maxPrefixTokensToMatch}, {@code lruCapacityPerServer}); the removed {@code blockSize} is an error.
   */
  public static PrefixCacheConfig from(PluginParameters p) {
    PrefixCacheConfig d = DEFAULT;
    int blockSizeTokens = p.intValue("blockSizeTokens", d.blockSizeTokens());
    int legacyBlockSize = p.intValue("blockSize", 0);
    if (legacyBlockSize > 0 && (!p.has("blockSizeTokens") || blockSizeTokens <= 0)) {
      throw new IllegalArgumentException("invalid configuration: BlockSize (" + legacyBlockSize
          + ") is deprecated; please use BlockSizeTokens instead to define the cache block size in tokens");
    }
    return new PrefixCacheConfig(p.boolValue("autoTune", d.autoTune()), blockSizeTokens,
        p.intValue("maxPrefixBlocksToMatch", d.maxPrefixBlocksToMatch()),
        p.intValue("maxPrefixTokensToMatch", d.maxPrefixTokensToMatch()),
        p.intValue("lruCapacityPerServer", d.lruCapacityPerServer()));
  }
}
