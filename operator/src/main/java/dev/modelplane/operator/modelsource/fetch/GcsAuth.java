package dev.modelplane.operator.modelsource.fetch;

import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link GcsClient} authenticates: not at all (public buckets), with a ready OAuth 2.0 access token, or with
 * tokens it obtains itself for a service account ({@link ServiceAccountTokens}). {@link #toString()} and
 * {@link #describe()} never show a token or key.
 */
public sealed interface GcsAuth permits GcsAuth.Anonymous, GcsAuth.AccessToken, ServiceAccountTokens {
  /** The bearer token to send, or empty for anonymous requests. */
  Optional<String> bearer() throws FetchException;

  /** Who the requests are made as, for messages: {@code anonymous requests}, {@code service account 'x@y'}. */
  String describe();

  /** Forgets a cached token the server rejected, so the next request obtains another. */
  default void invalidate() {
  }

  /** No credentials: only public buckets can be read. */
  static GcsAuth anonymous() {
    return new Anonymous();
  }

  /** Requests without an {@code Authorization} header. */
  record Anonymous() implements GcsAuth {
    @Override
    public Optional<String> bearer() {
      return Optional.empty();
    }

    @Override
    public String describe() {
      return "anonymous requests";
    }
  }

  /**
   * A ready access token (e.g. from {@code gcloud auth print-access-token}); it expires after about an hour.
   *
   * @param token the token; never shown
   */
  record AccessToken(String token) implements GcsAuth {
    public AccessToken {
      Objects.requireNonNull(token, "token");
      if (token.isBlank() || token.chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
        throw new IllegalArgumentException("an access token must be printable ASCII without spaces");
      }
    }

    @Override
    public Optional<String> bearer() {
      return Optional.of(token);
    }

    @Override
    public String describe() {
      return "the given access token";
    }

    @Override
    public String toString() {
      return "AccessToken[<set>]";
    }
  }
}
