package dev.modelplane.router.gateway;

import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.InflightBytes;
import dev.modelplane.router.request.RouterException;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;

/**
 * Reads one request body within the body size limit and the in-flight bytes budget. A declared {@code Content-Length}
 * is checked before any byte is read (413 over the hard limit, 400 when it is not a number, 429 with
 * {@code Retry-After} when the budget has no room for it) — only checked: bytes are reserved as they arrive, so idle
 * clients declaring large bodies hold nothing. The reservation is given back as soon as the body is over the limit
 * (nothing is kept of it, however long the client trickles the rest), else by {@link #release} when the exchange ends.
 */
final class BodyReader {
  /** What the exchange hears from the reader: the body or its refusal, once; nothing after {@link #release}. */
  interface Listener {
    /** The whole body arrived within the limits. */
    void bodyRead(byte[] body);

    /** The body is refused; {@code closeConnection}: the rest of it is not to be read. */
    void bodyRefused(RouterException refusal, boolean closeConnection);

    /** The request failed: the client went away. */
    void clientGone();
  }

  private final BoundedBody body;
  private final InflightBytes inflight;
  private final InflightBytes.Reservation reservation;
  private boolean released;

  BodyReader(long maxBytes, InflightBytes inflight) {
    this.body = new BoundedBody(maxBytes);
    this.inflight = inflight;
    this.reservation = inflight.reserve();
  }

  /** Reads {@code req}'s body; {@code guard} hears when it has been read, whatever became of the exchange. */
  void read(HttpServerRequest req, ClientConnectionGuard guard, Listener listener) {
    String contentLength = req.getHeader(HttpHeaders.CONTENT_LENGTH);
    try {
      body.checkDeclared(contentLength);
      long declared = body.declaredWithinLimit(contentLength);
      if (declared > 0 && !inflight.hasRoom(declared)) {
        throw inflight.refusal(); // before reading a byte of the body
      }
    } catch (RouterException e) {
      listener.bodyRefused(e, e.code() != ErrorCode.BAD_REQUEST);
      return;
    }
    req.handler(chunk -> {
      RouterException refusal = released ? null : append(chunk);
      if (refusal != null) {
        listener.bodyRefused(refusal, true);
      }
    });
    req.exceptionHandler(t -> listener.clientGone());
    req.endHandler(v -> {
      if (guard != null) {
        guard.bodyRead(req);
      }
      if (released) {
        return;
      }
      if (body.overLimit()) {
        listener.bodyRefused(body.tooLarge(), false);
      } else {
        listener.bodyRead(body.bytes());
      }
    });
  }

  /** Takes a chunk; returns the refusal that ends the request (413 past the hard limit, 429 past the budget). */
  private RouterException append(Buffer chunk) {
    BoundedBody.State state = body.append(chunk);
    if (state != BoundedBody.State.COLLECTING) {
      reservation.release(); // nothing is kept of a body over the limit, however long the client trickles the rest
    }
    if (state == BoundedBody.State.OVER_HARD_LIMIT) {
      return body.tooLarge();
    }
    if (state == BoundedBody.State.COLLECTING && !reservation.ensure(body.received())) {
      body.discard();
      return inflight.refusal();
    }
    return null;
  }

  /** Bytes received so far. */
  long received() {
    return body.received();
  }

  /** The exchange is over: the body's bytes go back to the budget, and nothing more is reported. */
  void release() {
    released = true;
    reservation.release();
  }
}
