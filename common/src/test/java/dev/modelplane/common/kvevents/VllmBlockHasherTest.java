package dev.modelplane.common.kvevents;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HexFormat;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The chain against digests Python computed with {@code cbor2.dumps(..., canonical=True)} and hashlib. */
class VllmBlockHasherTest {
  private static final HexFormat HEX = HexFormat.of();

  @Test
  void theSeedIsHashedAsAString() {
    assertThat(HEX.formatHex(new VllmBlockHasher("42").seedDigest()))
        .isEqualTo("9fa6eb003f14425eb9c8e6baacfbcaab26257357b829c7bfa74ffcc4f31c1780");
  }

  @Test
  void blocksChainOnTheirParentsWholeDigest() {
    VllmBlockHasher hasher = new VllmBlockHasher("42");
    byte[][] chain = hasher.hashPrompt(new int[] {1, 2, 3, 4, 5, 6, 7, 8, 9}, 4, null, null);
    assertThat(chain).hasNumberOfRows(2); // the partial ninth token makes no block
    assertThat(HEX.formatHex(chain[0]))
        .isEqualTo("0a99040f25d8a5f22275b867f403918da98c9d140eaea10f5319d4d1d84429df");
    assertThat(HEX.formatHex(chain[1]))
        .isEqualTo("c415b4994e9ed1d993bc50f53dc3c4e18c5200f39d1787ce9ba2dacb65221d14");
    assertThat(VllmBlockHasher.wireValue(chain[0])).isEqualTo(5988051177307384287L);
    assertThat(Long.toUnsignedString(VllmBlockHasher.wireValue(chain[1]))).isEqualTo("11214766589215907092");
  }

  @Test
  void anAdapterNameIsMixedIntoEveryBlockAndTheCacheSaltIntoTheFirst() {
    VllmBlockHasher hasher = new VllmBlockHasher("42");
    byte[][] lora = hasher.hashPrompt(new int[] {1, 2, 3, 4}, 4, "my-lora", null);
    assertThat(HEX.formatHex(lora[0]))
        .isEqualTo("3a3d3a28692c9a9608ff69357a8c89e0889763785b88db88283e7012c1e80086");
    assertThat(VllmBlockHasher.extraKeys(0, "a", "salt")).containsExactly("a", "salt");
    assertThat(VllmBlockHasher.extraKeys(1, "a", "salt")).containsExactly("a");
    assertThat(VllmBlockHasher.extraKeys(0, null, "salt")).containsExactly("salt");
    assertThat(VllmBlockHasher.extraKeys(3, null, "salt")).isNull();
  }

  @Test
  void largeTokenIdsAndMixedExtraKeysUseCborsShortestForms() {
    int[] tokens = IntStream.range(0, 130).map(i -> i * 1000).toArray();
    List<Object> extra = List.of("lora", List.of("mm", 3), new byte[] {'x', 'y'}, -5);
    byte[] digest = new VllmBlockHasher("42").hashBlock(null, tokens, 0, tokens.length, extra);
    assertThat(HEX.formatHex(digest))
        .isEqualTo("46633e91cf1389c1522b57a35746d3882f5bd34fe3bfdfa7842547c970526548");
  }

  @Test
  void tokenIdsAreHashedAsUnsigned() {
    // cbor2: 1a ee6b2800 for 4,000,000,000
    byte[] digest = new VllmBlockHasher("42").hashBlock(null, new int[] {(int) 4_000_000_000L}, 0, 1, null);
    assertThat(HEX.formatHex(digest))
        .isEqualTo("7929e3d839aa9d1c273accf48f0e813693a0c5046e5e432c99f41e443e1f886a");
  }

  @Test
  void withoutASeedTwoHashersDisagree() {
    int[] tokens = {1, 2, 3, 4};
    assertThat(new VllmBlockHasher(null).hashPrompt(tokens, 4, null, null)[0])
        .isNotEqualTo(new VllmBlockHasher(null).hashPrompt(tokens, 4, null, null)[0]);
  }
}
