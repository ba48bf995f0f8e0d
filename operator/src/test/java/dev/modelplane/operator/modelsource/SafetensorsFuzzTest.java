package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link SafetensorsHeader} and {@link SafetensorsIndex} on generated files, mutations of them and random bytes: a
 * header, or a {@link SafetensorsFormatException} naming the problem; never another exception, never a hang. Every
 * well-formed file, small or with many tensors, parses to the parameter count written into it.
 */
class SafetensorsFuzzTest {
  private static final List<String> DTYPES = List.of("F32", "F16", "BF16", "I8", "U8", "I64", "F8_E4M3", "X");
  private static final Mutations MUTATIONS = new Mutations(List.of("{", "}", "[", "]", "\"", ":", ",", "-1",
      "99999999999999999999999", "1e308", "\"shape\":", "\"data_offsets\":", "\"__metadata__\":", "null", "[[[[",
      "{\"a\":"), 1 << 20);
  private static Path dir;

  @BeforeContainer
  static void createDirectory() throws IOException {
    dir = Files.createTempDirectory("safetensors-fuzz");
  }

  @AfterContainer
  static void deleteDirectory() throws IOException {
    try (var files = Files.list(dir)) {
      for (Path p : files.toList()) {
        Files.delete(p);
      }
    }
    Files.delete(dir);
  }

  @Property(tries = 3000, seed = "7311", shrinking = ShrinkingMode.OFF)
  void streamedHeaders(@ForAll("files") byte[] valid, @ForAll("files") byte[] donor, @ForAll("randoms") Random random,
      @ForAll boolean mutate) {
    byte[] input = mutate ? MUTATIONS.mutate(valid, donor, random) : valid;
    Statistics.label("outcome").collect(Hostile.outcome(() -> countParameters(
        SafetensorsHeader.read(new ByteArrayInputStream(input), "fuzz")), SafetensorsFormatException.class,
        ArithmeticException.class));
  }

  /** Well-formed headers, up to 50,000 tensors (several megabytes of JSON): the parameter count comes back exact. */
  @Property(tries = 100, seed = "7315", shrinking = ShrinkingMode.OFF)
  void wellFormedFilesParseToTheirParameterCount(@ForAll("randoms") Random r) throws IOException {
    SafetensorsTestWriter w = new SafetensorsTestWriter();
    List<String> dtypes = DTYPES.subList(0, DTYPES.size() - 1);
    int tensors = r.nextInt(10) == 0 ? 20_000 + r.nextInt(30_000) : r.nextInt(20);
    long expected = 0;
    for (int i = 0; i < tensors; i++) {
      long[] shape = new long[r.nextInt(4)];
      long elements = 1;
      for (int d = 0; d < shape.length; d++) {
        shape[d] = r.nextInt(6);
        elements *= shape[d];
      }
      expected += elements;
      w.tensor("model.layers." + i + ".weight", dtypes.get(r.nextInt(dtypes.size())), shape);
    }
    if (r.nextBoolean()) {
      w.metadata("format", "pt");
    }
    byte[] bytes = w.bytes();
    Statistics.label("size").collect(bytes.length > (1 << 20) ? "over 1 MiB" : "small");
    SafetensorsHeader streamed = Hostile.valid(() -> SafetensorsHeader.read(new ByteArrayInputStream(bytes), "fuzz"));
    assertThat(streamed.tensors()).hasSize(tensors);
    assertThat(streamed.parameterCount()).isEqualTo(expected);
    Path file = Files.write(dir.resolve("valid.safetensors"), bytes);
    assertThat(Hostile.valid(() -> SafetensorsHeader.read(file)).parameterCount()).isEqualTo(expected);
  }

  @Property(tries = 600, seed = "7312", shrinking = ShrinkingMode.OFF)
  void headerFiles(@ForAll("files") byte[] valid, @ForAll("files") byte[] donor, @ForAll("randoms") Random random)
      throws IOException {
    byte[] input = random.nextInt(10) == 0 ? randomBytes(random) : MUTATIONS.mutate(valid, donor, random);
    Path file = Files.write(dir.resolve("model.safetensors"), input);
    Statistics.label("outcome").collect(Hostile.outcome(() -> countParameters(SafetensorsHeader.read(file)),
        SafetensorsFormatException.class, ArithmeticException.class));
  }

  @Property(tries = 1000, seed = "7313", shrinking = ShrinkingMode.OFF)
  void indexFiles(@ForAll("indexes") byte[] valid, @ForAll("indexes") byte[] donor, @ForAll("randoms") Random random,
      @ForAll boolean mutate) throws IOException {
    byte[] input = mutate ? MUTATIONS.mutate(valid, donor, random) : valid;
    Path file = Files.write(dir.resolve(SafetensorsIndex.FILE_NAME), input);
    if (!mutate) {
      Hostile.valid(() -> SafetensorsIndex.read(file));
    }
    Statistics.label("outcome").collect(Hostile.outcome(() -> SafetensorsIndex.read(file),
        SafetensorsFormatException.class));
  }

  @Property(tries = 1000, seed = "7314", shrinking = ShrinkingMode.OFF)
  void randomBytesAfterAPlausibleLength(@ForAll("randoms") Random random) {
    byte[] input = randomBytes(random);
    Statistics.label("outcome").collect(Hostile.outcome(
        () -> SafetensorsHeader.read(new ByteArrayInputStream(input), "fuzz"), SafetensorsFormatException.class));
  }

  private static long countParameters(SafetensorsHeader header) {
    return header.parameterCount();
  }

  private static byte[] randomBytes(Random random) {
    byte[] input = new byte[random.nextInt(600)];
    random.nextBytes(input);
    if (input.length > 8 && random.nextBoolean()) {
      ByteBuffer.wrap(input).order(ByteOrder.LITTLE_ENDIAN).putLong(random.nextInt(input.length));
      input[8] = '{';
    }
    return input;
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }

  @Provide
  Arbitrary<byte[]> files() {
    return Arbitraries.randoms().map(r -> {
      SafetensorsTestWriter w = new SafetensorsTestWriter();
      if (r.nextBoolean()) {
        w.metadata("format", r.nextBoolean() ? "pt" : "\u00e9\ud83d\ude00");
      }
      int tensors = r.nextInt(6);
      for (int i = 0; i < tensors; i++) {
        long[] shape = new long[r.nextInt(4)];
        for (int d = 0; d < shape.length; d++) {
          shape[d] = r.nextInt(5);
        }
        w.tensor("model.layers." + i + ".weight", DTYPES.get(r.nextInt(DTYPES.size())), shape);
      }
      return w.bytes();
    });
  }

  @Provide
  Arbitrary<byte[]> indexes() {
    return Arbitraries.randoms().map(r -> {
      StringBuilder map = new StringBuilder();
      int entries = 1 + r.nextInt(5);
      for (int i = 0; i < entries; i++) {
        map.append(i == 0 ? "" : ",").append("\"t").append(i).append("\":\"model-0000").append(r.nextInt(3))
            .append(".safetensors\"");
      }
      String json = "{\"metadata\":{\"total_size\":" + r.nextInt(1 << 20) + "},\"weight_map\":{" + map + "}}";
      return json.getBytes(StandardCharsets.UTF_8);
    });
  }
}
