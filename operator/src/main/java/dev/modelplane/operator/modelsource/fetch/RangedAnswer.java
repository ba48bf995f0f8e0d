package dev.modelplane.operator.modelsource.fetch;

import java.io.InputStream;
import java.net.http.HttpResponse;

/**
 * Reads the answer to a download that asked for the bytes from an offset on: {@code 206} must start at that offset,
 * {@code 200} is the whole file from its first byte, anything else is the store's own error.
 */
final class RangedAnswer {
  /** Turns an answer that is neither 200 nor 206 into the store's error; it may read or discard the body. */
  @FunctionalInterface
  interface StoreError {
    FetchException of(HttpResponse<InputStream> response) throws FetchException;
  }

  private RangedAnswer() {
  }

  /**
   * The body of {@code response} and where in the file it starts.
   *
   * @param origin how the message names the server that answered
   * @param what how the message names the file, e.g. {@code 'config.json'}
   * @throws FetchException {@code INVALID} when a partial answer starts elsewhere than {@code offset} (its body
   *     discarded), or the store's error for any other status
   */
  static RemoteStream stream(HttpResponse<InputStream> response, long offset, String origin, String what,
      StoreError error) throws FetchException {
    int status = response.statusCode();
    if (status == 206) {
      long start = ContentRange.start(response.headers().firstValue("Content-Range").orElse(""));
      if (start != offset) {
        HttpSender.discard(response);
        throw new FetchException(FetchException.Kind.INVALID, origin + " answered bytes from " + start + " of "
            + what + " when asked for " + offset);
      }
      return new RemoteStream(response.body(), offset);
    }
    if (status == 200) {
      return new RemoteStream(response.body(), 0);
    }
    throw error.of(response);
  }
}
