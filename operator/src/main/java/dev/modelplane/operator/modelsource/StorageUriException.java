package dev.modelplane.operator.modelsource;

/**
 * A storage URI that cannot be used. The message names the field and the URI and says what is wrong and which form
 * was expected, so it can go unchanged into a status condition or an admission answer.
 */
public final class StorageUriException extends IllegalArgumentException {
  private final String field;
  private final String uri;

  StorageUriException(String field, String uri, String message) {
    super(message);
    this.field = field;
    this.uri = uri;
  }

  /** The path of the field the URI came from, e.g. {@code spec.storage.storageUri}. */
  public String field() {
    return field;
  }

  /** The URI as given; may be null or empty. */
  public String uri() {
    return uri;
  }
}
