package dev.modelplane.router.plugin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.common.text.GoDuration;
import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.statistics.Statistics;

/**
 * Kubernetes quantities ({@link Quantities#quantity}), Go durations ({@link GoDuration}, {@link Quantities#duration})
 * and plugin parameters ({@link PluginParameters}) on valid, mutated and random text: a value, or an
 * {@link IllegalArgumentException} with a message (never a bare NumberFormatException or ArithmeticException), and
 * never a hang, e.g. on an exponent that would build a number with a billion digits.
 */
class QuantityAndDurationFuzzTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> QUANTITIES = List.of("512", "32Mi", "1Gi", "500M", "1.5Gi", "100m", "1e3",
      "1E6", "0", "+1Ki", "-1", "1Ei", "8Ti", "0.1", "1Pi");
  private static final List<String> DURATIONS = List.of("300ms", "1.5s", "2m30s", "1h", "-1.5h", "0", "1us",
      "1\u00b5s", "2562047h47m16.854775807s", ".5s", "1h2m3s4ms5us6ns");
  private static final Mutations MUTATIONS = new Mutations(List.of("e", "E", "e999999999", "e9999999", "e99999999",
      "E-99999999", "Ei", "Gi",
      "m", "u", ".", "-", "+", "0", "9".repeat(30), " ", "h", "ms", "\u00b5", "\u0660"), 256);

  @Property(tries = 3000, seed = "7361", shrinking = ShrinkingMode.OFF)
  void quantities(@ForAll("quantityText") String valid, @ForAll("quantityText") String donor,
      @ForAll("randoms") Random random, @ForAll boolean mutate) {
    String text = mutate ? mutated(valid, donor, random) : valid;
    Statistics.label("outcome").collect(Hostile.outcome(() -> Quantities.quantity(text),
        IllegalArgumentException.class));
    Hostile.outcome(() -> Quantities.quantity(JSON.getNodeFactory().textNode(text)), IllegalArgumentException.class);
  }

  @Property(tries = 3000, seed = "7362", shrinking = ShrinkingMode.OFF)
  void durations(@ForAll("durationText") String valid, @ForAll("durationText") String donor,
      @ForAll("randoms") Random random, @ForAll boolean mutate) {
    String text = mutate ? mutated(valid, donor, random) : valid;
    Statistics.label("outcome").collect(Hostile.outcome(() -> GoDuration.parse(text),
        IllegalArgumentException.class));
    Hostile.outcome(() -> Quantities.duration(text, "field"), IllegalArgumentException.class);
  }

  /** A parser refusing everything would pass the two properties above; this one fails it. */
  @Property(tries = 3000, seed = "7365")
  void wellFormedQuantitiesParseToTheirValue(@ForAll @LongRange(min = 0, max = 1L << 30) long n,
      @ForAll("suffixes") String suffix) {
    long factor = switch (suffix) {
      case "Ki" -> 1L << 10;
      case "Mi" -> 1L << 20;
      case "Gi" -> 1L << 30;
      case "k" -> 1_000L;
      case "M" -> 1_000_000L;
      case "G" -> 1_000_000_000L;
      default -> 1L;
    };
    assertThat(Quantities.quantity(n + suffix)).isEqualTo(n * factor);
    assertThat(Quantities.quantity(JSON.getNodeFactory().textNode(n + suffix))).isEqualTo(n * factor);
  }

  @Provide
  Arbitrary<String> suffixes() {
    return Arbitraries.of("", "Ki", "Mi", "Gi", "k", "M", "G");
  }

  @Property(tries = 3000, seed = "7363")
  void formattedDurationsParseBack(@ForAll @LongRange(min = Long.MIN_VALUE + 1) long nanos) {
    Duration d = Duration.ofNanos(nanos);
    assertThat(GoDuration.parse(GoDuration.format(d))).isEqualTo(d);
  }

  @Property(tries = 2000, seed = "7364", shrinking = ShrinkingMode.OFF)
  void pluginParameters(@ForAll("json") String json, @ForAll("randoms") Random random) throws Exception {
    JsonNode node = JSON.readTree(json);
    PluginParameters p = PluginParameters.of(node);
    String field = random.nextBoolean() ? "f" : "g";
    Statistics.label("outcome").collect(Hostile.outcome(() -> switch (random.nextInt(9)) {
      case 0 -> p.intValue(field, 1);
      case 1 -> p.doubleValue(field, 1);
      case 2 -> p.boolValue(field, false);
      case 3 -> p.text(field, "x");
      case 4 -> p.duration(field, Duration.ZERO);
      case 5 -> p.textList(field);
      case 6 -> p.objectList(field).stream().map(PluginParameters::toString).toList();
      case 7 -> p.object(field).isEmpty();
      default -> p.has(field) + p.toString();
    }, IllegalArgumentException.class));
  }

  private static String mutated(String valid, String donor, Random random) {
    return new String(MUTATIONS.mutate(valid.getBytes(StandardCharsets.UTF_8), donor.getBytes(StandardCharsets.UTF_8),
        random), StandardCharsets.UTF_8);
  }

  @Provide
  Arbitrary<String> quantityText() {
    Arbitrary<String> exponents = net.jqwik.api.Combinators.combine(Arbitraries.of("1", "0", "-3", "0.5", "12."),
        Arbitraries.of("e", "E"), Arbitraries.integers().between(-99_999_999, 99_999_999))
        .as((mantissa, e, exponent) -> mantissa + e + exponent);
    return Arbitraries.oneOf(Arbitraries.of(QUANTITIES), Arbitraries.strings().ofMaxLength(20), exponents);
  }

  @Provide
  Arbitrary<String> durationText() {
    return Arbitraries.oneOf(Arbitraries.of(DURATIONS), Arbitraries.strings().ofMaxLength(20));
  }

  @Provide
  Arbitrary<String> json() {
    Arbitrary<String> values = Arbitraries.of("1", "-1", "1.5", "1e400", "99999999999999999999", "true", "\"true\"",
        "\"12\"", "\" 7 \"", "\"1e999999999\"", "\"5s\"", "\"-5s\"", "\"x\"", "\"\"", "null", "[]", "[1,\"a\",{}]",
        "{}", "{\"a\":1}", "[{\"f\":1},2,null]", "\"NaN\"", "\"Infinity\"", "\"0x10\"");
    return Arbitraries.oneOf(values.map(v -> "{\"f\":" + v + "}"), values,
        values.map(v -> "{\"g\":{\"f\":" + v + "}}"));
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }
}
