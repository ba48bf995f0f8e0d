package dev.modelplane.router.prefix;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * XXH64 with seed 0, the hash GIE's approximate prefix cache uses (Go's {@code github.com/cespare/xxhash/v2}). Written
 * from the published algorithm; {@link #hash(byte[], int, int)} is the one-shot digest.
 */
public final class XxHash64 {
  private static final long P1 = 0x9E3779B185EBCA87L;
  private static final long P2 = 0xC2B2AE3D27D4EB4FL;
  private static final long P3 = 0x165667B19E3779F9L;
  private static final long P4 = 0x85EBCA77C2B2AE63L;
  private static final long P5 = 0x27D4EB2F165667C5L;
  private static final VarHandle LONG_LE =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
  private static final VarHandle INT_LE =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private XxHash64() {
  }

  /** XXH64 of {@code data[off, off+len)} with seed 0. */
  public static long hash(byte[] data, int off, int len) {
    int end = off + len;
    int p = off;
    long h;
    if (len >= 32) {
      long v1 = P1 + P2;
      long v2 = P2;
      long v3 = 0;
      long v4 = -P1;
      int limit = end - 32;
      do {
        v1 = round(v1, (long) LONG_LE.get(data, p));
        v2 = round(v2, (long) LONG_LE.get(data, p + 8));
        v3 = round(v3, (long) LONG_LE.get(data, p + 16));
        v4 = round(v4, (long) LONG_LE.get(data, p + 24));
        p += 32;
      } while (p <= limit);
      h = Long.rotateLeft(v1, 1) + Long.rotateLeft(v2, 7) + Long.rotateLeft(v3, 12) + Long.rotateLeft(v4, 18);
      h = mergeRound(h, v1);
      h = mergeRound(h, v2);
      h = mergeRound(h, v3);
      h = mergeRound(h, v4);
    } else {
      h = P5;
    }
    h += len;
    while (p + 8 <= end) {
      h ^= round(0, (long) LONG_LE.get(data, p));
      h = Long.rotateLeft(h, 27) * P1 + P4;
      p += 8;
    }
    if (p + 4 <= end) {
      h ^= ((int) INT_LE.get(data, p) & 0xFFFFFFFFL) * P1;
      h = Long.rotateLeft(h, 23) * P2 + P3;
      p += 4;
    }
    while (p < end) {
      h ^= (data[p] & 0xFFL) * P5;
      h = Long.rotateLeft(h, 11) * P1;
      p++;
    }
    h ^= h >>> 33;
    h *= P2;
    h ^= h >>> 29;
    h *= P3;
    h ^= h >>> 32;
    return h;
  }

  /** XXH64 of a whole array. */
  public static long hash(byte[] data) {
    return hash(data, 0, data.length);
  }

  private static long round(long acc, long input) {
    acc += input * P2;
    acc = Long.rotateLeft(acc, 31);
    return acc * P1;
  }

  private static long mergeRound(long acc, long val) {
    acc ^= round(0, val);
    return acc * P1 + P4;
  }
}
