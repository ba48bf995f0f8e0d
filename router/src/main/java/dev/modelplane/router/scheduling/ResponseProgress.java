package dev.modelplane.router.scheduling;

import java.nio.charset.StandardCharsets;

/**
 * Follows a response body as it is relayed: when its first and last bytes passed, and how many of its server-sent
 * events carried tokens, with when the first and last of them passed. An event carries tokens when it has data other
 * than the {@code [DONE]} marker and its type is a token delta or it has no type: OpenAI's chat and completions
 * chunks have none (one chunk, one token on vLLM-style servers); Anthropic's Messages stream names its events
 * ({@code content_block_delta} carries text; {@code message_start}, {@code ping}, {@code message_delta} … do not),
 * and so does OpenAI's Responses stream ({@code response.output_text.delta} and the other {@code response.*.delta}
 * events carry tokens; {@code response.created}, {@code response.completed} … do not). The type is the event's
 * {@code event:} field, else a {@code "type"} its data opens with. Lines are read up to {@value #KEPT} bytes, enough
 * for both; chunk boundaries may fall anywhere. One per exchange; not thread-safe.
 */
public final class ResponseProgress {
  /** Bytes of a line kept: the field name and the start of its value. */
  private static final int KEPT = 96;
  private static final String TYPE_FIRST = "{\"type\":\"";

  private long firstByteNanos = -1;
  private long lastByteNanos = -1;
  private long firstEventNanos = -1;
  private long lastEventNanos = -1;
  private int events;

  private final byte[] line = new byte[KEPT];
  private int lineLength;
  private int lineBytes;
  private String eventType;
  private boolean hasData;
  private boolean done;

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
      if (b == '\n') {
        endLine(nowNanos);
      } else if (b != '\r') {
        if (lineLength < KEPT) {
          line[lineLength++] = b;
        }
        lineBytes++;
      }
    }
  }

  private void endLine(long nowNanos) {
    if (lineBytes == 0) {
      endEvent(nowNanos);
    } else {
      String text = new String(line, 0, lineLength, StandardCharsets.UTF_8);
      if (text.startsWith("event:")) {
        eventType = text.substring(6).strip();
      } else if (text.startsWith("data:")) {
        String data = text.substring(5).stripLeading();
        hasData = true;
        done |= data.startsWith("[DONE]");
        if (eventType == null && data.startsWith(TYPE_FIRST)) {
          int end = data.indexOf('"', TYPE_FIRST.length());
          eventType = end < 0 ? "" : data.substring(TYPE_FIRST.length(), end);
        }
      }
    }
    lineLength = 0;
    lineBytes = 0;
  }

  private void endEvent(long nowNanos) {
    if (carriesTokens()) {
      events++;
      if (firstEventNanos < 0) {
        firstEventNanos = nowNanos;
      }
      lastEventNanos = nowNanos;
    }
    eventType = null;
    hasData = false;
    done = false;
  }

  private boolean carriesTokens() {
    if (!hasData || done) {
      return false;
    }
    return eventType == null || eventType.equals("content_block_delta")
        || eventType.startsWith("response.") && eventType.endsWith(".delta");
  }

  /** {@link System#nanoTime()}-based time of the first body byte, −1 when none came. */
  public long firstByteNanos() {
    return firstByteNanos;
  }

  /** Time of the last body byte, −1 when none came. */
  public long lastByteNanos() {
    return lastByteNanos;
  }

  /** Time of the first token-bearing event, −1 when none came. */
  public long firstEventNanos() {
    return firstEventNanos;
  }

  /** Time of the last token-bearing event, −1 when none came. */
  public long lastEventNanos() {
    return lastEventNanos;
  }

  /** Token-bearing server-sent events seen (ended by their blank line); 0 for a plain JSON body. */
  public int events() {
    return events;
  }
}
