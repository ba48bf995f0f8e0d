package dev.modelplane.common.kvevents;

import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The few CBOR items a block-hash input holds, each in its shortest form (RFC 8949 §4.2.1): what Python's
 * {@code cbor2.dumps(value, canonical=True)} writes for tuples of byte strings, integers, strings and None. Maps and
 * floats never occur in a block's hash input, so canonical map order does not arise.
 */
final class Cbor {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(256);

  byte[] bytes() {
    return out.toByteArray();
  }

  void reset() {
    out.reset();
  }

  Cbor arrayHeader(int n) {
    head(4, n);
    return this;
  }

  Cbor byteString(byte[] b) {
    head(2, b.length);
    out.writeBytes(b);
    return this;
  }

  Cbor unsigned(long v) {
    head(0, v);
    return this;
  }

  Cbor nil() {
    out.write(0xf6);
    return this;
  }

  /** Any value of an extra key: null, a string, an integer, bytes, or a list of those. */
  Cbor value(Object v) {
    switch (v) {
      case null -> nil();
      case String s -> {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        head(3, utf8.length);
        out.writeBytes(utf8);
      }
      case byte[] b -> byteString(b);
      case Integer i -> integer(i);
      case Long l -> integer(l);
      case BigInteger b when b.signum() >= 0 && b.bitLength() <= 64 -> unsigned(b.longValue());
      case Boolean b -> out.write(b ? 0xf5 : 0xf4);
      case List<?> list -> {
        arrayHeader(list.size());
        list.forEach(this::value);
      }
      default -> throw new IllegalArgumentException("no CBOR form for " + v.getClass().getSimpleName());
    }
    return this;
  }

  private void integer(long v) {
    if (v >= 0) {
      head(0, v);
    } else {
      head(1, -1 - v);
    }
  }

  /** A head of major type {@code major} with argument {@code arg} read as unsigned. */
  private void head(int major, long arg) {
    int m = major << 5;
    if (arg >= 0 && arg < 24) {
      out.write(m | (int) arg);
    } else if (arg >= 0 && arg < 0x100) {
      out.write(m | 24);
      out.write((int) arg);
    } else if (arg >= 0 && arg < 0x10000) {
      out.write(m | 25);
      be(arg, 2);
    } else if (arg >= 0 && arg < 0x100000000L) {
      out.write(m | 26);
      be(arg, 4);
    } else {
      out.write(m | 27);
      be(arg, 8);
    }
  }

  private void be(long v, int n) {
    for (int i = n - 1; i >= 0; i--) {
      out.write((int) (v >>> (8 * i)) & 0xff);
    }
  }
}
