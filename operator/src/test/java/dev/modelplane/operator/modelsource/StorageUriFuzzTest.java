package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.StringLength;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link StorageUri#parse} on valid URIs of every scheme, mutations of them and random text: a URI, or a
 * {@link StorageUriException} naming the field; never another exception.
 */
class StorageUriFuzzTest {
  private static final String FIELD = "spec.storage.storageUri";
  private static final List<String> VALID = List.of("oci://n/ns/b/bucket/o/models/llama/", "pvc://models/llama-3",
      "pvc://team-a:models/llama/8b", "hf://meta-llama/Llama-3.1-8B@main", "hf://datasets/org/set",
      "s3://bucket@us-east-1/models/llama/", "az://acct/container/blob/path",
      "az://acct.blob.core.windows.net/container/blob", "gs://bucket/object/", "github://owner/repo@v1.0",
      "local:///models/llama", "vendor://nvidia/nim/llama3");
  private static final Mutations MUTATIONS = new Mutations(List.of("/", "//", "@", ":", "://", "..", ".", " ",
      "%2e%2e", "\\", "\u0000", "hf", "pvc", "A"), 4096);

  @Property(tries = 3000, seed = "7321", shrinking = ShrinkingMode.OFF)
  void mutatedUris(@ForAll("valid") String valid, @ForAll("valid") String donor, @ForAll("randoms") Random random) {
    String uri = new String(MUTATIONS.mutate(valid.getBytes(StandardCharsets.UTF_8),
        donor.getBytes(StandardCharsets.UTF_8), random), StandardCharsets.UTF_8);
    Statistics.label("outcome").collect(parse(uri));
  }

  @Property(tries = 2000, seed = "7322", shrinking = ShrinkingMode.OFF)
  void randomText(@ForAll("schemes") String scheme, @ForAll @StringLength(max = 300) String rest) {
    Statistics.label("outcome").collect(parse(scheme + rest));
  }

  @Property(tries = 100, seed = "7323")
  void everyValidUriParses(@ForAll("valid") String uri) {
    assertThat(parse(uri)).isEqualTo("ok");
  }

  private static String parse(String uri) {
    return Hostile.outcome(() -> {
      try {
        return StorageUri.parse(uri, FIELD);
      } catch (StorageUriException e) {
        assertThat(e.field()).isEqualTo(FIELD);
        assertThat(e.getMessage()).startsWith(FIELD + ":");
        throw e;
      }
    }, StorageUriException.class);
  }

  @Provide
  Arbitrary<String> valid() {
    return Arbitraries.of(VALID);
  }

  @Provide
  Arbitrary<String> schemes() {
    return Arbitraries.of("", "hf://", "pvc://", "oci://", "s3://", "az://", "gs://", "github://", "local://",
        "vendor://", "HF://", "ftp://");
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }
}
