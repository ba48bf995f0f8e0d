package dev.modelplane.router.scheduling;

/**
 * Follows a response body as it is relayed: when its first and last bytes passed and how many server-sent events it
 * carried ({@code data:} lines, the {@code [DONE]} marker left out) — one per streamed chunk, which is one token on
 * vLLM-style servers. Chunk boundaries may fall anywhere, inside a marker too. One per exchange; not thread-safe.
 */
public final class ResponseProgress {
  private static final byte[] DATA = "data:".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  private static final byte[] DONE = "[DONE]".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  private long firstByteNanos = -1;
  private long lastByteNanos = -1;
  private int events;
  private int doneMarkers;
  private int dataMatched;
  private int doneMatched;

  /** {@code length} bytes of {@code bytes} from {@code offset} were relayed at {@code nowNanos}. */
  public void onBody(byte[] bytes, int offset, int length, long nowNanos) {
    if (length <= 0) {
      return;
    }
    if (firstByteNanos < 0) {
      firstByteNanos = nowNanos;
    }
    lastByteNanos = nowNanos;
    for (int i = offset; i < offset + length; i++) {
      byte b = bytes[i];
      dataMatched = advance(DATA, dataMatched, b);
      if (dataMatched == DATA.length) {
        events++;
        dataMatched = 0;
      }
      doneMatched = advance(DONE, doneMatched, b);
      if (doneMatched == DONE.length) {
        doneMarkers++;
        doneMatched = 0;
      }
    }
  }

  /** Neither marker repeats a prefix of itself, so a mismatch restarts at 0 or 1. */
  private static int advance(byte[] pattern, int matched, byte b) {
    if (pattern[matched] == b) {
      return matched + 1;
    }
    return pattern[0] == b ? 1 : 0;
  }

  /** {@link System#nanoTime()}-based time of the first body byte, −1 when none came. */
  public long firstByteNanos() {
    return firstByteNanos;
  }

  /** Time of the last body byte, −1 when none came. */
  public long lastByteNanos() {
    return lastByteNanos;
  }

  /** Server-sent events seen, without the {@code [DONE]} marker; 0 for a plain JSON body. */
  public int events() {
    return Math.max(0, events - doneMarkers);
  }
}
