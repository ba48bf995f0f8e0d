package dev.modelplane.common.kvevents;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.List;

/**
 * vLLM's {@code sha256_cbor} prefix-caching hash ({@code --prefix-caching-hash-algo sha256_cbor}), which names a
 * full block of tokens by its whole prefix: block {@code i}'s digest is SHA-256 of the canonical CBOR of the tuple
 * {@code (digest of block i-1, the block's token ids, extra keys or None)}, and the chain starts from the digest of
 * the hash seed (vLLM's {@code PYTHONHASHSEED}, hashed as a string; unset means random, so no one else can compute
 * the server's hashes). The value a server publishes is the digest's last eight bytes read big-endian.
 *
 * <p>Extra keys are vLLM's per-block tuple: the adapter's name on every block of a LoRA request, the request's
 * {@code cache_salt} on the first block only, and multimodal items where they overlap the block. This is the only one
 * of vLLM's algorithms another program can compute: the default, {@code sha256}, hashes a Python pickle. Instances
 * are not thread-safe (they reuse a digest and a buffer).
 */
public final class VllmBlockHasher {
  private final byte[] seedDigest;
  private final MessageDigest sha256;
  private final Cbor cbor = new Cbor();

  /**
   * @param hashSeed the server's {@code PYTHONHASHSEED}, or null for a random seed
   */
  public VllmBlockHasher(String hashSeed) {
    this.sha256 = newSha256();
    if (hashSeed == null) {
      seedDigest = new byte[32];
      new SecureRandom().nextBytes(seedDigest);
    } else {
      seedDigest = sha256.digest(new Cbor().value(hashSeed).bytes());
    }
  }

  /** The digest a chain starts from (vLLM's {@code NONE_HASH}). */
  public byte[] seedDigest() {
    return seedDigest.clone();
  }

  /**
   * The digest of the block {@code tokens[from, from + blockSize)} after the block whose digest is {@code parent}.
   * Token ids are read as unsigned 32-bit values.
   *
   * @param parent the previous block's digest, or null for the first block
   * @param extraKeys the block's extra keys, or null when it has none
   */
  public byte[] hashBlock(byte[] parent, int[] tokens, int from, int blockSize, List<?> extraKeys) {
    cbor.reset();
    cbor.arrayHeader(3).byteString(parent == null ? seedDigest : parent).arrayHeader(blockSize);
    for (int i = from; i < from + blockSize; i++) {
      cbor.unsigned(Integer.toUnsignedLong(tokens[i]));
    }
    if (extraKeys == null) {
      cbor.nil();
    } else {
      cbor.value(extraKeys);
    }
    return sha256.digest(cbor.bytes());
  }

  /**
   * The digests of every full block of {@code tokens}, first to last.
   *
   * @param loraName the adapter's name, mixed into every block, or null
   * @param cacheSalt the request's cache salt, mixed into the first block, or null
   */
  public byte[][] hashPrompt(int[] tokens, int blockSize, String loraName, String cacheSalt) {
    byte[][] out = new byte[tokens.length / blockSize][];
    byte[] parent = null;
    for (int b = 0; b < out.length; b++) {
      parent = hashBlock(parent, tokens, b * blockSize, blockSize, extraKeys(b, loraName, cacheSalt));
      out[b] = parent;
    }
    return out;
  }

  /** The extra keys vLLM gives block {@code index} of a text request, or null when there are none. */
  public static List<Object> extraKeys(int index, String loraName, String cacheSalt) {
    boolean salt = cacheSalt != null && index == 0;
    if (loraName == null && !salt) {
      return null;
    }
    if (loraName != null && salt) {
      return List.of(loraName, cacheSalt);
    }
    return List.of(loraName != null ? loraName : cacheSalt);
  }

  /** The 64-bit value a server publishes for {@code digest}: its last eight bytes, big-endian. */
  public static long wireValue(byte[] digest) {
    long h = 0;
    for (int i = digest.length - 8; i < digest.length; i++) {
      h = (h << 8) | (digest[i] & 0xff);
    }
    return h;
  }

  private static MessageDigest newSha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java runtime has SHA-256", e);
    }
  }
}
