package dev.modelplane.testsupport;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;

/**
 * Mutations of valid inputs for the property tests of the parsers of untrusted files: bit flips, byte and range
 * overwrites, insertions, deletions, truncation, duplication, splicing with another input, boundary integers written
 * over 4- or 8-byte fields, and insertion of format tokens (e.g. JSON brackets). All randomness comes from the
 * {@link Random} jqwik supplies, so a failing input is reproduced by the property's seed.
 */
public final class Mutations {
  private static final long[] BOUNDARY = {0, 1, -1, 2, 7, 8, 0x7F, 0x80, 0xFF, 0x7FFF, 0xFFFF, Integer.MAX_VALUE,
      Integer.MIN_VALUE, 0xFFFFFFFFL, 1L << 32, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE / 2, 1L << 62,
      16L * 1024 * 1024, 16L * 1024 * 1024 + 1, 100L * 1024 * 1024, 100L * 1024 * 1024 + 1};
  private static final List<String> UNICODE = List.of("\u0000", "\u00e9", "\u202e", "\ud83d\ude00", "\ufffd",
      "\ud800", "\u200b", "\uffff", "\u0085");

  private final List<byte[]> tokens;
  private final int maxLength;

  /**
   * @param tokens format tokens to insert (e.g. {@code [}, {@code "}, {@code :})
   * @param maxLength longest mutated input returned
   */
  public Mutations(List<String> tokens, int maxLength) {
    this.tokens = tokens.stream().map(t -> t.getBytes(StandardCharsets.UTF_8)).toList();
    this.maxLength = maxLength;
  }

  /** {@code seed} with 1 to 8 random mutations applied; {@code donor} is spliced in by some of them. */
  public byte[] mutate(byte[] seed, byte[] donor, Random random) {
    byte[] b = seed.clone();
    int rounds = 1 + random.nextInt(8);
    for (int i = 0; i < rounds; i++) {
      b = once(b, donor, random);
    }
    return b.length > maxLength ? java.util.Arrays.copyOf(b, maxLength) : b;
  }

  private byte[] once(byte[] b, byte[] donor, Random r) {
    int op = r.nextInt(12);
    if (b.length == 0) {
      op = 5;
    }
    switch (op) {
      case 0 -> {
        int at = r.nextInt(b.length);
        b[at] ^= (byte) (1 << r.nextInt(8));
      }
      case 1 -> b[r.nextInt(b.length)] = (byte) r.nextInt(256);
      case 2 -> b[r.nextInt(b.length)] = (byte) BOUNDARY[r.nextInt(BOUNDARY.length)];
      case 3 -> {
        int at = r.nextInt(b.length);
        int len = Math.min(b.length - at, 1 + r.nextInt(Math.max(1, b.length / 4)));
        return concat(slice(b, 0, at), slice(b, at + len, b.length));
      }
      case 4 -> {
        return slice(b, 0, r.nextInt(b.length));
      }
      case 5 -> {
        byte[] insert = new byte[1 + r.nextInt(16)];
        r.nextBytes(insert);
        int at = b.length == 0 ? 0 : r.nextInt(b.length + 1);
        return concat(slice(b, 0, at), insert, slice(b, at, b.length));
      }
      case 6 -> {
        int at = r.nextInt(b.length);
        int len = Math.min(b.length - at, 1 + r.nextInt(64));
        int to = r.nextInt(b.length + 1);
        return concat(slice(b, 0, to), slice(b, at, at + len), slice(b, to, b.length));
      }
      case 7 -> {
        if (donor.length == 0) {
          return b;
        }
        int from = r.nextInt(donor.length);
        int at = r.nextInt(b.length + 1);
        return concat(slice(b, 0, at), slice(donor, from, donor.length));
      }
      case 8 -> writeNumber(b, r, 8);
      case 9 -> writeNumber(b, r, 4);
      case 10 -> {
        byte[] token = tokens.isEmpty() ? new byte[] {0} : tokens.get(r.nextInt(tokens.size()));
        int repeat = r.nextInt(10) == 0 ? 1 + r.nextInt(5000) : 1 + r.nextInt(3);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < repeat; i++) {
          out.writeBytes(token);
        }
        int at = r.nextInt(b.length + 1);
        return concat(slice(b, 0, at), out.toByteArray(), slice(b, at, b.length));
      }
      default -> {
        byte[] u = UNICODE.get(r.nextInt(UNICODE.size())).getBytes(StandardCharsets.UTF_8);
        int at = r.nextInt(b.length + 1);
        return concat(slice(b, 0, at), u, slice(b, at, b.length));
      }
    }
    return b;
  }

  private static void writeNumber(byte[] b, Random r, int width) {
    if (b.length < width) {
      return;
    }
    int at = r.nextInt(b.length - width + 1);
    ByteBuffer buf = ByteBuffer.wrap(b, at, width).order(ByteOrder.LITTLE_ENDIAN);
    long v = BOUNDARY[r.nextInt(BOUNDARY.length)];
    if (width == 8) {
      buf.putLong(v);
    } else {
      buf.putInt((int) v);
    }
  }

  private static byte[] slice(byte[] b, int from, int to) {
    return java.util.Arrays.copyOfRange(b, from, Math.max(from, to));
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }
}
