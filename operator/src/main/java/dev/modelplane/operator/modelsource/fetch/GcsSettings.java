package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how to read a model from Google Cloud Storage through its JSON API.
 *
 * @param endpoint the service's base URL, {@value #DEFAULT_ENDPOINT} or an emulator's address
 * @param bucket the bucket name
 * @param prefix the object name prefix of the model's "directory" (no leading slash; a trailing slash is implied), or
 *     empty for the whole bucket
 * @param auth how requests authenticate
 * @param pageSize how many objects each listing page asks for (1 to 1000)
 * @param timeout connect timeout, and how long to wait for each response's headers
 */
public record GcsSettings(URI endpoint, String bucket, String prefix, GcsAuth auth, int pageSize, Duration timeout) {
  /** Google's endpoint, used when {@code storage.parameters.endpoint} names none. */
  public static final String DEFAULT_ENDPOINT = "https://storage.googleapis.com";

  // GCS bucket names: lowercase letters, digits, '-', '_' and '.', 3 to 222 characters (63 between dots).
  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]");

  public GcsSettings {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(auth, "auth");
    Objects.requireNonNull(timeout, "timeout");
    prefix = prefix == null ? "" : prefix.replaceAll("^/+", "").replaceAll("/+$", "");
    String scheme = endpoint.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme) || endpoint.getHost() == null) {
      throw new IllegalArgumentException("GCS endpoint must be an http(s) URL with a host, got '"
          + dev.modelplane.operator.modelsource.RedactedUrl.of(endpoint.toString()) + "'");
    }
    if (endpoint.getRawQuery() != null || endpoint.getRawUserInfo() != null) {
      throw new IllegalArgumentException("GCS endpoint must not have a query or user info, got "
          + HttpSender.origin(endpoint));
    }
    endpoint = URI.create(endpoint.toString().replaceAll("/+$", ""));
    if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw new IllegalArgumentException("GCS bucket name must be 3-222 lowercase letters, digits, '.', '_' or '-', "
          + "got '" + bucket + "'");
    }
    if (pageSize < 1 || pageSize > 1000) {
      throw new IllegalArgumentException("GCS list page size must be 1 to 1000, got " + pageSize);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /** Settings for {@code bucket}/{@code prefix} at {@code endpoint}, 1000 objects a page, 30 s timeout. */
  public static GcsSettings of(URI endpoint, String bucket, String prefix, GcsAuth auth) {
    return new GcsSettings(endpoint, bucket, prefix, auth, 1000, Duration.ofSeconds(30));
  }

  /** The same settings listing {@code size} objects a page. */
  public GcsSettings withPageSize(int size) {
    return new GcsSettings(endpoint, bucket, prefix, auth, size, timeout);
  }

  /** The same settings with other credentials. */
  public GcsSettings withAuth(GcsAuth newAuth) {
    return new GcsSettings(endpoint, bucket, prefix, newAuth, pageSize, timeout);
  }

  /** The same settings for another bucket and prefix. */
  public GcsSettings withLocation(String newBucket, String newPrefix) {
    return new GcsSettings(endpoint, newBucket, newPrefix, auth, pageSize, timeout);
  }

  /** The object name prefix with its trailing slash ({@code ""} for a whole bucket). */
  public String namePrefix() {
    return prefix.isEmpty() ? "" : prefix + "/";
  }
}
