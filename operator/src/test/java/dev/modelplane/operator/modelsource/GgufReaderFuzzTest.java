package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link GgufReader} on generated GGUF headers, mutations of them and random bytes: it returns metadata or throws an
 * {@link IOException} with a message, never anything else, and never hangs; and every well-formed header, small or
 * large, parses to the fields written into it.
 */
class GgufReaderFuzzTest {
  private static final List<String> KEYS = List.of("general.architecture", "general.name", "general.file_type",
      "general.license", "general.quantization_version", "general.a", "llama.context_length",
      "llama.embedding_length", "llama.attention.head_count", "llama.block_count", "tokenizer.ggml.tokens", "x", "",
      "general.", "llama.", "\u00e9\ud83d\ude00");
  private static final Mutations MUTATIONS = new Mutations(List.of("GGUF", "\u0009\0\0\0", "\u0008\0\0\0"),
      1 << 20);

  @Property(tries = 3000, seed = "7301", shrinking = ShrinkingMode.OFF)
  void generatedAndMutatedHeaders(@ForAll("headers") byte[] valid, @ForAll("headers") byte[] donor,
      @ForAll("randoms") Random random, @ForAll boolean mutate) {
    byte[] input = mutate ? MUTATIONS.mutate(valid, donor, random) : valid;
    Statistics.label("mutated").collect(mutate);
    if (!mutate) {
      Hostile.valid(() -> GgufReader.read(new ByteArrayInputStream(input)));
    }
    Statistics.label("outcome").collect(Hostile.outcome(() -> GgufReader.read(new ByteArrayInputStream(input)),
        IOException.class));
  }

  /**
   * A header with known fields among noise key-values of every type, sometimes behind a large array (up to 300,000
   * strings, several megabytes) or many key-values: the fields come back as written.
   */
  @Property(tries = 200, seed = "7304", shrinking = ShrinkingMode.OFF)
  void wellFormedHeadersParseToTheirFields(@ForAll("randoms") Random r) {
    ByteArrayOutputStream kvs = new ByteArrayOutputStream();
    int count = 0;
    int noise = r.nextInt(10) == 0 ? 20_000 : r.nextInt(8);
    for (int i = 0; i < noise; i++) {
      int type = r.nextInt(13);
      kvs.writeBytes(string("noise." + i));
      kvs.writeBytes(u32(type));
      value(kvs, type, r, 0);
      count++;
    }
    boolean large = r.nextInt(8) == 0;
    if (large) {
      int n = 100_000 + r.nextInt(200_000);
      kvs.writeBytes(string("general.vocabulary"));
      kvs.writeBytes(u32(9));
      kvs.writeBytes(u32(8));
      kvs.writeBytes(u64(n));
      for (int i = 0; i < n; i++) {
        kvs.writeBytes(string("token-" + i));
      }
      count++;
    }
    long context = 1 + r.nextInt(1 << 20);
    long blocks = 1 + r.nextInt(200);
    String name = "model-" + r.nextInt(1000) + "-\u00e9";
    kvs.writeBytes(string("general.architecture"));
    kvs.writeBytes(u32(8));
    kvs.writeBytes(string("llama"));
    kvs.writeBytes(string("general.name"));
    kvs.writeBytes(u32(8));
    kvs.writeBytes(string(name));
    kvs.writeBytes(string("llama.context_length"));
    kvs.writeBytes(u32(4));
    kvs.writeBytes(u32(context));
    kvs.writeBytes(string("llama.block_count"));
    kvs.writeBytes(u32(10));
    kvs.writeBytes(u64(blocks));
    count += 4;
    byte[] input = file(count, kvs.toByteArray());
    Statistics.label("size").collect(input.length > (1 << 20) ? "over 1 MiB" : "small");

    GgufMetadata m = Hostile.valid(() -> GgufReader.read(new ByteArrayInputStream(input)));
    assertThat(m.architecture()).isEqualTo("llama");
    assertThat(m.modelName()).isEqualTo(name);
    assertThat(m.contextLength()).isEqualTo(context);
    assertThat(m.layerCount()).isEqualTo(blocks);
    assertThat(m.tensorCount()).isEqualTo(1);
  }

  @Property(tries = 2000, seed = "7302", shrinking = ShrinkingMode.OFF)
  void randomBytesAfterTheMagic(@ForAll("randoms") Random random, @ForAll boolean magic) {
    byte[] input = new byte[random.nextInt(512)];
    random.nextBytes(input);
    if (magic && input.length >= 8) {
      ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN).putInt(0x46554747).putInt(2 + random.nextInt(2));
    }
    Statistics.label("outcome").collect(Hostile.outcome(() -> GgufReader.read(new ByteArrayInputStream(input)),
        IOException.class));
  }

  @Property(tries = 300, seed = "7303", shrinking = ShrinkingMode.OFF)
  void deeplyNestedArrays(@ForAll("randoms") Random random) {
    ByteArrayOutputStream kv = new ByteArrayOutputStream();
    kv.writeBytes(string("general.nested"));
    kv.writeBytes(u32(9));
    int depth = 1 + random.nextInt(random.nextBoolean() ? 20 : 100_000);
    for (int i = 0; i < depth; i++) {
      kv.writeBytes(u32(9));
      kv.writeBytes(u64(random.nextInt(10) == 0 ? Long.MAX_VALUE : 1 + random.nextInt(3)));
    }
    kv.writeBytes(u32(4));
    kv.writeBytes(u64(0));
    byte[] input = file(1, kv.toByteArray());
    Statistics.label("outcome").collect(Hostile.outcome(() -> GgufReader.read(new ByteArrayInputStream(input)),
        IOException.class));
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }

  @Provide
  Arbitrary<byte[]> headers() {
    return Arbitraries.randoms().map(GgufReaderFuzzTest::header);
  }

  /** A well-formed GGUF header of 0 to 12 key-values of every type, arrays nested up to 3 deep. */
  private static byte[] header(Random r) {
    ByteArrayOutputStream kvs = new ByteArrayOutputStream();
    int count = r.nextInt(13);
    for (int i = 0; i < count; i++) {
      String key = r.nextInt(4) == 0 ? "k" + r.nextInt(1000) : KEYS.get(r.nextInt(KEYS.size()));
      int type = key.equals("general.architecture") ? 8 : r.nextInt(13);
      kvs.writeBytes(string(key));
      kvs.writeBytes(u32(type));
      value(kvs, type, r, 0);
    }
    return file(count, kvs.toByteArray());
  }

  private static void value(ByteArrayOutputStream out, int type, Random r, int depth) {
    switch (type) {
      case 0, 1, 7 -> out.write(r.nextInt(256));
      case 2, 3 -> out.writeBytes(new byte[] {(byte) r.nextInt(), (byte) r.nextInt()});
      case 4, 5, 6 -> out.writeBytes(u32(r.nextInt()));
      case 10, 11, 12 -> out.writeBytes(u64(r.nextLong()));
      case 8 -> out.writeBytes(string(switch (r.nextInt(3)) {
        case 0 -> "llama";
        case 1 -> "a-long-architecture-name";
        default -> "v" + "\u00e9".repeat(r.nextInt(5));
      }));
      default -> {
        int element = depth >= 2 ? r.nextInt(9) : r.nextInt(13);
        int n = r.nextInt(6);
        out.writeBytes(u32(element));
        out.writeBytes(u64(n));
        for (int i = 0; i < n; i++) {
          value(out, element, r, depth + 1);
        }
      }
    }
  }

  static byte[] file(long kvCount, byte[] kvs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes("GGUF".getBytes(StandardCharsets.US_ASCII));
    out.writeBytes(u32(3));
    out.writeBytes(u64(1));
    out.writeBytes(u64(kvCount));
    out.writeBytes(kvs);
    return out.toByteArray();
  }

  static byte[] string(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(u64(bytes.length));
    out.writeBytes(bytes);
    return out.toByteArray();
  }

  static byte[] u32(long v) {
    return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int) v).array();
  }

  static byte[] u64(long v) {
    return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array();
  }
}
