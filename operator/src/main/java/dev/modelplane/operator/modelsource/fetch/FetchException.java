package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;

/**
 * A download or listing failed. The {@link Kind} says what a caller can do about it; {@link #retryable()} whether the
 * same request may succeed later. Messages name the repository, bucket, revision or file involved and never contain
 * tokens, secret keys or signed URLs.
 */
public final class FetchException extends IOException {
  /** What went wrong, as far as the caller needs to know. */
  public enum Kind {
    /** The credentials are missing, wrong or not allowed to read this source (HTTP 401/403). */
    ACCESS_DENIED(false),
    /** The repository, revision, bucket, prefix or file does not exist. */
    NOT_FOUND(false),
    /** The server failed (HTTP 5xx, 429). */
    SERVER_ERROR(true),
    /** The server could not be reached, or the connection broke or stalled mid-transfer. */
    CONNECTION(true),
    /** A downloaded file does not have the size or SHA-256 its source announced. */
    INTEGRITY(false),
    /** The source's answer or a remote name cannot be used (bad JSON/XML, path traversal, too many redirects). */
    INVALID(false),
    /** The local disk failed: full, read-only, or not writable by us. */
    STORAGE(false),
    /** The caller cancelled the download. */
    CANCELLED(false);

    private final boolean retryable;

    Kind(boolean retryable) {
      this.retryable = retryable;
    }
  }

  private final Kind kind;

  public FetchException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public FetchException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  /** What went wrong. */
  public Kind kind() {
    return kind;
  }

  /** Whether trying the same request again later may succeed. */
  public boolean retryable() {
    return kind.retryable;
  }
}
