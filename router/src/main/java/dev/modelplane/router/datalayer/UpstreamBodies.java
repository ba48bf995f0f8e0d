package dev.modelplane.router.datalayer;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpHeaders;

/**
 * Reads a model server's response body up to a cap, so that no upstream can make the router buffer without limit.
 * A body over the cap (declared or received) fails the read with {@link TooLarge} and resets the upstream request.
 */
public final class UpstreamBodies {
  /** A model server's {@code /metrics} page: vLLM's is tens of KiB, with many LoRA adapters a few hundred. */
  public static final long MAX_METRICS_BYTES = 4L * 1024 * 1024;
  /** A model server's {@code /v1/models} answer, relayed by the gateway. */
  public static final long MAX_MODELS_BYTES = 1024L * 1024;

  /** The body was larger than the cap. */
  public static final class TooLarge extends RuntimeException {
    public TooLarge(long max) {
      super("response body exceeds the limit of " + max + " bytes", null, false, false);
    }
  }

  private UpstreamBodies() {
  }

  /** The whole body of {@code response} when it is at most {@code max} bytes. */
  public static Future<Buffer> read(HttpClientResponse response, long max) {
    Promise<Buffer> result = Promise.promise();
    String declared = response.getHeader(HttpHeaders.CONTENT_LENGTH);
    if (declared != null) {
      try {
        if (Long.parseLong(declared.trim()) > max) {
          response.request().reset();
          return Future.failedFuture(new TooLarge(max));
        }
      } catch (NumberFormatException e) {
        // Vert.x rejects a malformed length itself; read on and let the cap decide
      }
    }
    Buffer body = Buffer.buffer();
    response.handler(chunk -> {
      if (result.future().isComplete()) {
        return;
      }
      if ((long) body.length() + chunk.length() > max) {
        result.tryFail(new TooLarge(max));
        response.request().reset(); // stop reading: the connection is closed
        return;
      }
      body.appendBuffer(chunk);
    });
    response.exceptionHandler(result::tryFail);
    response.endHandler(v -> result.tryComplete(body));
    return result.future();
  }
}
