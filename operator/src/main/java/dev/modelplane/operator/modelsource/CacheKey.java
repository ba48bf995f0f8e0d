package dev.modelplane.operator.modelsource;

import dev.modelplane.operator.common.Names;

/** LLMKube's cache key: the first 16 hexadecimal digits of the SHA-256 of the source string. */
public final class CacheKey {
  private CacheKey() {
  }

  /** The cache key of a source string, as upstream's {@code pkg/cachekey} computes it. */
  public static String of(String source) {
    return Names.sha256Hex(source).substring(0, 16);
  }
}
