package dev.modelplane.router.gateway;

import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RouterException;
import io.vertx.core.buffer.Buffer;

/**
 * A request body collected up to the gateway's limit. Past the limit the rest is drained (so the client can read the
 * 413); past a hard limit — four times the limit, at least 64 MiB more — the gateway stops reading and closes.
 */
final class BoundedBody {
  /** What a chunk did to the body. */
  enum State { COLLECTING, OVER_LIMIT, OVER_HARD_LIMIT }

  private final long maxBytes;
  private Buffer body = Buffer.buffer();
  private long received;

  BoundedBody(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /** Checks a declared {@code Content-Length}: 413 over the hard limit, 400 when it is not a number. */
  void checkDeclared(String contentLength) {
    if (contentLength == null) {
      return;
    }
    try {
      if (Long.parseLong(contentLength.trim()) > hardLimit()) {
        throw tooLarge();
      }
    } catch (NumberFormatException e) {
      throw new RouterException(ErrorCode.BAD_REQUEST, "invalid Content-Length");
    }
  }

  State append(Buffer chunk) {
    received += chunk.length();
    if (received > hardLimit()) {
      body = null;
      return State.OVER_HARD_LIMIT;
    }
    if (received > maxBytes) {
      body = null;
      return State.OVER_LIMIT;
    }
    if (body != null) {
      body.appendBuffer(chunk);
    }
    return State.COLLECTING;
  }

  /** Drops what was collected and stops collecting (the request was refused); chunks are still counted. */
  void discard() {
    body = null;
  }

  /** The declared {@code Content-Length} when it is within the limit, else -1. */
  long declaredWithinLimit(String contentLength) {
    if (contentLength == null) {
      return -1;
    }
    try {
      long n = Long.parseLong(contentLength.trim());
      return n >= 0 && n <= maxBytes ? n : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  boolean overLimit() {
    return received > maxBytes;
  }

  long received() {
    return received;
  }

  /** The body, once: the collected buffer is let go so that only the returned copy stays. */
  byte[] bytes() {
    byte[] b = body.getBytes();
    body = null;
    return b;
  }

  RouterException tooLarge() {
    return new RouterException(ErrorCode.PAYLOAD_TOO_LARGE, "request body exceeds the limit of " + maxBytes + " bytes");
  }

  private long hardLimit() {
    return Math.max(maxBytes * 4, maxBytes + 64L * 1024 * 1024);
  }
}
