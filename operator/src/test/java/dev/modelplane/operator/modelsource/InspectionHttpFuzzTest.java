package dev.modelplane.operator.modelsource;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.testsupport.Hostile;
import dev.modelplane.testsupport.Mutations;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.statistics.Statistics;

/**
 * {@link InspectionHttp#read}, the parser of what a model source's server answers, on generated answers (status
 * line, headers, a body framed by Content-Length, chunked with extensions and trailers, or running to the end),
 * mutations of them and random bytes, read in pieces of random sizes: the answer with its whole body, or an
 * IOException naming the host; never another exception or a hang. Well-formed answers give back exactly the body
 * that was written, whatever the framing and chunking.
 */
class InspectionHttpFuzzTest {
  private static final String HOST = "files.test";
  private static final Mutations MUTATIONS = new Mutations(List.of("\r\n", "\n", "\r\n\r\n", ":", " ", ";", "0",
      "f", "-", "+", "ffffffffffffffff", "8000000000000000", "Transfer-Encoding: chunked\r\n", "Content-Length: ",
      "99999999999999999999", "HTTP/1.1 ", "HTTP/2 ", "\u0000", "\u00e9"), 1 << 20);

  /**
   * One answer as it goes over the wire, with the body it carries.
   *
   * @param wire the bytes the server sends
   * @param body the body a reader must get back
   * @param framing how the body is delimited, for the statistics
   */
  record Answer(byte[] wire, byte[] body, String framing) {
  }

  @Property(tries = 3000, seed = "7331", shrinking = ShrinkingMode.OFF)
  void hostileAnswersGiveABodyOrAnIoException(@ForAll("answers") Answer valid, @ForAll("answers") Answer donor,
      @ForAll("randoms") Random random, @ForAll("modes") String mode) {
    byte[] wire = switch (mode) {
      case "valid" -> valid.wire();
      case "random" -> {
        byte[] b = new byte[random.nextInt(4000)];
        random.nextBytes(b);
        yield b;
      }
      default -> MUTATIONS.mutate(valid.wire(), donor.wire(), random);
    };
    Statistics.label("outcome").collect(Hostile.outcome(() -> read(wire, random, true), IOException.class));
  }

  @Property(tries = 1000, seed = "7332", shrinking = ShrinkingMode.OFF)
  void wellFormedAnswersGiveBackTheirBody(@ForAll("answers") Answer answer, @ForAll("randoms") Random random) {
    assertThat(Hostile.valid(() -> read(answer.wire(), random, false))).isEqualTo(answer.body());
    Statistics.label("framing").collect(answer.framing());
    Statistics.label("size").collect(answer.body().length < 65536 ? "<64KiB" : ">=64KiB");
  }

  /** The body of the answer in {@code wire}, read in pieces of random sizes (skipping some when {@code skip}). */
  private static byte[] read(byte[] wire, Random random, boolean skip) throws IOException {
    try (InspectionHttp.Response response = InspectionHttp.read(new ByteArrayInputStream(wire), HOST)) {
      assertThat(response.headers()).allSatisfy((name, value) -> {
        assertThat(name).isEqualTo(name.toLowerCase(Locale.ROOT)).doesNotContain("\n");
        assertThat(value).doesNotContain("\n");
      });
      InputStream body = response.body();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[16384];
      while (true) {
        int pick = random.nextInt(10);
        if (pick == 0) {
          int b = body.read();
          if (b < 0) {
            break;
          }
          out.write(b);
        } else if (pick == 1 && skip) {
          assertThat(body.skip(random.nextInt(300))).isNotNegative();
        } else {
          int n = body.read(buffer, 0, 1 + random.nextInt(buffer.length));
          if (n < 0) {
            break;
          }
          out.write(buffer, 0, n);
        }
      }
      return out.toByteArray();
    } catch (IOException e) {
      assertThat(e.getMessage()).contains(HOST);
      throw e;
    }
  }

  @Provide
  Arbitrary<Answer> answers() {
    return Arbitraries.randoms().map(InspectionHttpFuzzTest::answer);
  }

  private static Answer answer(Random r) {
    String eol = r.nextInt(5) == 0 ? "\n" : "\r\n";
    byte[] body = new byte[r.nextInt(8) == 0 ? 65536 + r.nextInt(200_000) : r.nextInt(3000)];
    r.nextBytes(body);
    StringBuilder head = new StringBuilder(r.nextInt(6) == 0 ? "HTTP/1.0 " : "HTTP/1.1 ")
        .append(List.of(200, 206, 301, 404, 500).get(r.nextInt(5))).append(r.nextBoolean() ? " OK" : "").append(eol);
    for (int i = r.nextInt(5); i > 0; i--) {
      head.append(List.of("ETag: \"e1\"", "content-type: application/octet-stream", "X-Empty:", "Location: /next",
          "X-Long: " + "v".repeat(r.nextInt(5000))).get(r.nextInt(5))).append(eol);
    }
    String framing = List.of("length", "chunked", "to-the-end").get(r.nextInt(3));
    ByteArrayOutputStream wire = new ByteArrayOutputStream();
    switch (framing) {
      case "length" -> {
        head.append(r.nextBoolean() ? "Content-Length: " : "content-length:").append(body.length).append(eol)
            .append(eol);
        wire.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        wire.writeBytes(body);
        // Whatever follows the declared length is not the body.
        wire.writeBytes("HTTP/1.1 200 OK\r\n".getBytes(StandardCharsets.ISO_8859_1));
      }
      case "chunked" -> {
        head.append(r.nextBoolean() ? "Transfer-Encoding: chunked" : "transfer-encoding: Chunked").append(eol)
            .append(eol);
        wire.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
        for (int at = 0; at < body.length; ) {
          int n = Math.min(body.length - at, 1 + r.nextInt(r.nextBoolean() ? 16 : 40_000));
          String size = Integer.toHexString(n);
          wire.writeBytes(((r.nextBoolean() ? size.toUpperCase(Locale.ROOT) : size)
              + (r.nextInt(4) == 0 ? ";ext=1" : "") + eol).getBytes(StandardCharsets.ISO_8859_1));
          wire.write(body, at, n);
          wire.writeBytes(eol.getBytes(StandardCharsets.ISO_8859_1));
          at += n;
        }
        wire.writeBytes(("0" + eol + (r.nextBoolean() ? "X-Trailer: t" + eol : "") + eol)
            .getBytes(StandardCharsets.ISO_8859_1));
      }
      default -> {
        wire.writeBytes(head.append(eol).toString().getBytes(StandardCharsets.ISO_8859_1));
        wire.writeBytes(body);
      }
    }
    return new Answer(wire.toByteArray(), body, framing);
  }

  @Provide
  Arbitrary<String> modes() {
    return Arbitraries.of("valid", "mutated", "mutated", "mutated", "random");
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }
}
