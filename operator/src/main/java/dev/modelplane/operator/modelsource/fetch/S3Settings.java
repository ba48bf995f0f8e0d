package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where and how to read a model from an S3-compatible service with path-style addressing
 * ({@code {endpoint}/{bucket}/{key}}).
 *
 * @param endpoint the service's base URL, e.g. {@code https://s3.us-east-1.amazonaws.com} or a MinIO address
 * @param region the signing region ({@code us-east-1} by default)
 * @param accessKey the access key id; with the secret key empty too, requests go unsigned (public buckets)
 * @param secretKey the secret access key; {@link #toString()} never shows it
 * @param sessionToken the token of temporary credentials; never shown either
 * @param bucket the bucket name
 * @param prefix the key prefix of the model's "directory" (no leading slash; a trailing slash is implied), or empty
 * @param pageSize how many keys each ListObjectsV2 page asks for (1 to 1000)
 * @param timeout connect timeout, and how long to wait for each response's headers
 */
public record S3Settings(URI endpoint, String region, String accessKey, String secretKey,
    Optional<String> sessionToken, String bucket, String prefix, int pageSize, Duration timeout) {
  /** The region signed when none is given. */
  public static final String DEFAULT_REGION = "us-east-1";

  private static final Pattern BUCKET = Pattern.compile("[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]");

  public S3Settings {
    Objects.requireNonNull(endpoint, "endpoint");
    region = region == null || region.isBlank() ? DEFAULT_REGION : region;
    accessKey = accessKey == null ? "" : accessKey;
    secretKey = secretKey == null ? "" : secretKey;
    sessionToken = Objects.requireNonNull(sessionToken, "sessionToken").filter(t -> !t.isBlank());
    Objects.requireNonNull(bucket, "bucket");
    prefix = prefix == null ? "" : prefix.replaceAll("^/+", "").replaceAll("/+$", "");
    Objects.requireNonNull(timeout, "timeout");
    String scheme = endpoint.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme) || endpoint.getHost() == null) {
      throw new IllegalArgumentException("S3 endpoint must be an http(s) URL with a host, got '"
          + dev.modelplane.operator.modelsource.RedactedUrl.of(endpoint.toString()) + "'");
    }
    if (endpoint.getRawQuery() != null || endpoint.getRawUserInfo() != null) {
      throw new IllegalArgumentException("S3 endpoint must not have a query or user info, got "
          + HttpSender.origin(endpoint));
    }
    endpoint = URI.create(endpoint.toString().replaceAll("/+$", ""));
    if (!region.matches("[a-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("S3 region must be lowercase letters, digits and '-', got '" + region + "'");
    }
    if (accessKey.isBlank() != secretKey.isBlank()) {
      throw new IllegalArgumentException("S3 credentials need both an access key and a secret key (or neither, "
          + "for a public bucket); only the " + (accessKey.isBlank() ? "secret key" : "access key") + " is set");
    }
    if (!BUCKET.matcher(bucket).matches() || bucket.contains("..")) {
      throw new IllegalArgumentException("S3 bucket name must be 3-63 lowercase letters, digits, '.' or '-', got '"
          + bucket + "'");
    }
    if (pageSize < 1 || pageSize > 1000) {
      throw new IllegalArgumentException("S3 list page size must be 1 to 1000, got " + pageSize);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /** Settings for {@code bucket}/{@code prefix} at {@code endpoint} in us-east-1, 1000 keys a page, 30 s timeout. */
  public static S3Settings of(URI endpoint, String bucket, String prefix, String accessKey, String secretKey) {
    return new S3Settings(endpoint, DEFAULT_REGION, accessKey, secretKey, Optional.empty(), bucket, prefix, 1000,
        Duration.ofSeconds(30));
  }

  /** The same settings in another region. */
  public S3Settings withRegion(String newRegion) {
    return new S3Settings(endpoint, newRegion, accessKey, secretKey, sessionToken, bucket, prefix, pageSize, timeout);
  }

  /** The same settings with a session token (temporary credentials). */
  public S3Settings withSessionToken(String token) {
    return new S3Settings(endpoint, region, accessKey, secretKey, Optional.ofNullable(token), bucket, prefix,
        pageSize, timeout);
  }

  /** The same settings with other credentials. */
  public S3Settings withCredentials(String newAccessKey, String newSecretKey) {
    return new S3Settings(endpoint, region, newAccessKey, newSecretKey, sessionToken, bucket, prefix, pageSize,
        timeout);
  }

  /** The same settings listing {@code size} keys a page. */
  public S3Settings withPageSize(int size) {
    return new S3Settings(endpoint, region, accessKey, secretKey, sessionToken, bucket, prefix, size, timeout);
  }

  /** The same settings with another timeout. */
  public S3Settings withTimeout(Duration newTimeout) {
    return new S3Settings(endpoint, region, accessKey, secretKey, sessionToken, bucket, prefix, pageSize, newTimeout);
  }

  /** The same settings for another bucket and prefix. */
  public S3Settings withLocation(String newBucket, String newPrefix) {
    return new S3Settings(endpoint, region, accessKey, secretKey, sessionToken, newBucket, newPrefix, pageSize,
        timeout);
  }

  /** Whether requests are signed. */
  public boolean signed() {
    return !accessKey.isBlank();
  }

  /** The key prefix with its trailing slash ({@code ""} for a whole bucket). */
  public String keyPrefix() {
    return prefix.isEmpty() ? "" : prefix + "/";
  }

  @Override
  public String toString() {
    return "S3Settings[endpoint=" + endpoint + ", region=" + region + ", accessKey=" + accessKey + ", secretKey="
        + (secretKey.isEmpty() ? "<none>" : "<set>") + ", sessionToken=" + (sessionToken.isPresent() ? "<set>"
        : "<none>") + ", bucket=" + bucket + ", prefix=" + prefix + ", pageSize=" + pageSize + ", timeout="
        + timeout + "]";
  }
}
