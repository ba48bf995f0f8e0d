package dev.modelplane.router.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Reference values come from hack/router/prefix-vectors (Go, github.com/cespare/xxhash/v2 — the library and chaining
 * GIE's approximate prefix cache uses).
 */
class PrefixHasherTest {
  private static final String PROMPT = "The quick brown fox jumps over the lazy dog. ".repeat(8); // 360 bytes

  @Test
  void xxh64MatchesReferenceVectors() {
    assertThat(hex(XxHash64.hash(bytes("")))).isEqualTo("ef46db3751d8e999");
    assertThat(hex(XxHash64.hash(bytes("a")))).isEqualTo("d24ec4f1a98c6e5b");
    assertThat(hex(XxHash64.hash(bytes("abc")))).isEqualTo("44bc2cf5ad770999");
    assertThat(hex(XxHash64.hash(bytes("hello, world")))).isEqualTo("b33a384e6d1b1242");
    assertThat(hex(XxHash64.hash(bytes("0123456789".repeat(10))))).isEqualTo("f80e7b96315afffa");
  }

  @Test
  void chainsBlocksSeededByModel() {
    assertThat(hexes(PrefixHasher.hashPrompt(bytes(PROMPT), "llama-3", "", 16, 256))).containsExactly(
        "4b44a6f322221b55", "e2aee41c568ab175", "33fbdef8604c16b1", "0da82321b0bfaff0", "e197908151d579cc");
  }

  @Test
  void cacheSaltAndModelChangeEveryHash() {
    assertThat(hexes(PrefixHasher.hashPrompt(bytes(PROMPT), "llama-3", "tenant-a", 16, 256))).containsExactly(
        "bbefd7db932f88aa", "581d70c9383ffe61", "bb385638c71f37cc", "a32fa327a26d8246", "c1830a4a3e353942");
    assertThat(hexes(PrefixHasher.hashPrompt(bytes(PROMPT), "qwen", "", 16, 256))).containsExactly(
        "529eb7938cc0021a", "ce18ba9362a50ed3", "a5ed44411ab2c4de", "d32d709ae3995e10", "a4eef7e275d685d2");
  }

  @Test
  void truncatesToMaxBlocksAndUsesTheBlockSize() {
    assertThat(hexes(PrefixHasher.hashPrompt(bytes(PROMPT), "llama-3", "", 4, 3)))
        .containsExactly("3572fc26b8674134", "018cb905b96c5158", "e653df1344a11420");
  }

  @Test
  void shortInputHasNoHashAndTailIsDropped() {
    assertThat(PrefixHasher.hashPrompt(bytes("x".repeat(63)), "m", "", 16, 256)).isEmpty();
    assertThat(PrefixHasher.hashPrompt(bytes("x".repeat(64)), "m", "", 16, 256)).hasSize(1);
    assertThat(PrefixHasher.hashPrompt(bytes("x".repeat(127)), "m", "", 16, 256)).hasSize(1);
  }

  @Test
  void sharedPrefixSharesLeadingHashes() {
    long[] a = PrefixHasher.hashPrompt(bytes("s".repeat(640) + "question one"), "m", "", 16, 256);
    long[] b = PrefixHasher.hashPrompt(bytes("s".repeat(640) + "another question entirely, long enough to add a block"
        + "!".repeat(64)), "m", "", 16, 256);
    for (int i = 0; i < 10; i++) {
      assertThat(a[i]).isEqualTo(b[i]);
    }
    assertThat(b.length).isGreaterThan(10);
  }

  @Test
  void xxh64HandlesEveryTailLength() {
    // Lengths 0..80 cross the 32-byte stripe, 8-byte, 4-byte and 1-byte paths; the digest must not depend on offset.
    byte[] data = new byte[100];
    for (int i = 0; i < data.length; i++) {
      data[i] = (byte) (i * 31 + 7);
    }
    for (int len = 0; len <= 80; len++) {
      byte[] copy = java.util.Arrays.copyOfRange(data, 3, 3 + len);
      assertThat(XxHash64.hash(data, 3, len)).isEqualTo(XxHash64.hash(copy));
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String hex(long v) {
    return String.format("%016x", v);
  }

  private static String[] hexes(long[] values) {
    String[] out = new String[values.length];
    for (int i = 0; i < values.length; i++) {
      out[i] = hex(values[i]);
    }
    return out;
  }
}
