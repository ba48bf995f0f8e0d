package dev.modelplane.router.ui;

import java.util.ArrayList;
import java.util.List;

/**
 * Requests, errors, tokens and time to first token over the last {@code buckets × bucketMillis}, in fixed time buckets
 * reused round-robin (bounded memory). TTFT goes into a log-scale histogram per bucket ({@value #BINS} bins, each 20%
 * wider than the one before, from 1 ms to about 100 s), so percentiles are approximate: a percentile is reported as
 * its bin's upper bound, at most 20% above the true value.
 */
final class TrafficWindow {
  static final int BINS = 64;
  private static final double FIRST_BOUND_MS = 1;
  private static final double GROWTH = 1.2;

  /** One bucket's totals. {@code ttft}: a copy of its histogram. */
  record Bucket(long startMillis, int requests, int errors, long tokens, int[] ttft) {
  }

  private final long bucketMillis;
  private final long[] start;
  private final int[] requests;
  private final int[] errors;
  private final long[] tokens;
  private final int[][] ttft;

  TrafficWindow(long bucketMillis, int buckets) {
    if (bucketMillis < 1 || buckets < 1) {
      throw new IllegalArgumentException("bucketMillis and buckets must be >= 1, got " + bucketMillis + ", " + buckets);
    }
    this.bucketMillis = bucketMillis;
    this.start = new long[buckets];
    java.util.Arrays.fill(start, Long.MIN_VALUE);
    this.requests = new int[buckets];
    this.errors = new int[buckets];
    this.tokens = new long[buckets];
    this.ttft = new int[buckets][BINS];
  }

  long bucketMillis() {
    return bucketMillis;
  }

  /** Counts one finished request at {@code timeMillis}; {@code ttftMs} < 0 when it had no first token. */
  synchronized void record(long timeMillis, boolean ok, long tokenCount, double ttftMs) {
    int i = slot(timeMillis);
    requests[i]++;
    if (!ok) {
      errors[i]++;
    }
    tokens[i] += Math.max(0, tokenCount);
    if (ttftMs >= 0) {
      ttft[i][bin(ttftMs)]++;
    }
  }

  /** Every bucket of the window that ends at {@code nowMillis}, oldest first; empty buckets included. */
  synchronized List<Bucket> buckets(long nowMillis) {
    long current = Math.floorDiv(nowMillis, bucketMillis) * bucketMillis;
    List<Bucket> out = new ArrayList<>(start.length);
    for (int k = start.length - 1; k >= 0; k--) {
      long s = current - k * bucketMillis;
      int i = index(s);
      if (start[i] == s) {
        out.add(new Bucket(s, requests[i], errors[i], tokens[i], ttft[i].clone()));
      } else {
        out.add(new Bucket(s, 0, 0, 0, new int[BINS]));
      }
    }
    return out;
  }

  private int slot(long timeMillis) {
    long s = Math.floorDiv(timeMillis, bucketMillis) * bucketMillis;
    int i = index(s);
    if (start[i] != s) {
      start[i] = s;
      requests[i] = 0;
      errors[i] = 0;
      tokens[i] = 0;
      java.util.Arrays.fill(ttft[i], 0);
    }
    return i;
  }

  private int index(long bucketStart) {
    return (int) Math.floorMod(Math.floorDiv(bucketStart, bucketMillis), (long) start.length);
  }

  /** The histogram bin of a TTFT: the first whose upper bound holds it; the last bin takes everything longer. */
  static int bin(double ms) {
    if (ms <= FIRST_BOUND_MS) {
      return 0;
    }
    int b = (int) Math.ceil(Math.log(ms / FIRST_BOUND_MS) / Math.log(GROWTH) - 1e-9);
    return Math.min(b, BINS - 1);
  }

  /** The upper bound of bin {@code b}, in milliseconds. */
  static double upperBound(int b) {
    return FIRST_BOUND_MS * Math.pow(GROWTH, b);
  }

  /** The {@code q} quantile (0..1] of a histogram as its bin's upper bound; NaN when it holds nothing. */
  static double quantile(int[] histogram, double q) {
    long n = 0;
    for (int c : histogram) {
      n += c;
    }
    if (n == 0) {
      return Double.NaN;
    }
    long rank = Math.max(1, (long) Math.ceil(q * n));
    long seen = 0;
    for (int b = 0; b < histogram.length; b++) {
      seen += histogram[b];
      if (seen >= rank) {
        return upperBound(b);
      }
    }
    return upperBound(histogram.length - 1);
  }

  /** The bin-wise sum of histograms. */
  static int[] merge(List<int[]> histograms) {
    int[] sum = new int[BINS];
    for (int[] h : histograms) {
      for (int b = 0; b < BINS; b++) {
        sum[b] += h[b];
      }
    }
    return sum;
  }
}
