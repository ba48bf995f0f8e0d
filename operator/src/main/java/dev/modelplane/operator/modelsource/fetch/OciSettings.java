package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how to read a model from OCI Object Storage ({@code {endpoint}/n/{namespace}/b/{bucket}/o/{object}}).
 *
 * @param endpoint the service's base URL, {@code https://objectstorage.<region>.oraclecloud.com} or a test server
 * @param namespace the Object Storage namespace (the tenancy's)
 * @param bucket the bucket name
 * @param prefix the object name prefix of the model's "directory" (no leading slash; a trailing slash is implied), or
 *     empty for the whole bucket
 * @param signer signs every request; {@link #toString()} shows its key id only (a session token never)
 * @param pageSize how many objects each ListObjects page asks for (1 to 1000)
 * @param timeout connect timeout, and how long to wait for each response's headers
 */
public record OciSettings(URI endpoint, String namespace, String bucket, String prefix, OciSigner signer,
    int pageSize, Duration timeout) {
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,256}");

  public OciSettings {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(signer, "signer");
    Objects.requireNonNull(timeout, "timeout");
    prefix = prefix == null ? "" : prefix.replaceAll("^/+", "").replaceAll("/+$", "");
    String scheme = endpoint.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme) || endpoint.getHost() == null) {
      throw new IllegalArgumentException("OCI Object Storage endpoint must be an http(s) URL with a host, got '"
          + dev.modelplane.operator.modelsource.RedactedUrl.of(endpoint.toString()) + "'");
    }
    if (endpoint.getRawQuery() != null || endpoint.getRawUserInfo() != null) {
      throw new IllegalArgumentException("OCI Object Storage endpoint must not have a query or user info, got "
          + HttpSender.origin(endpoint));
    }
    endpoint = URI.create(endpoint.toString().replaceAll("/+$", ""));
    if (!NAME.matcher(namespace).matches()) {
      throw new IllegalArgumentException("OCI namespace must be letters, digits, '.', '_' or '-', got '" + namespace
          + "'");
    }
    if (!NAME.matcher(bucket).matches()) {
      throw new IllegalArgumentException("OCI bucket name must be 1-256 letters, digits, '.', '_' or '-', got '"
          + bucket + "'");
    }
    if (pageSize < 1 || pageSize > 1000) {
      throw new IllegalArgumentException("OCI list page size must be 1 to 1000, got " + pageSize);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /** Settings listing 1000 objects a page with a 30 s timeout. */
  public static OciSettings of(URI endpoint, String namespace, String bucket, String prefix, OciSigner signer) {
    return new OciSettings(endpoint, namespace, bucket, prefix, signer, 1000, Duration.ofSeconds(30));
  }

  /** The public endpoint of a region, e.g. {@code https://objectstorage.eu-frankfurt-1.oraclecloud.com}. */
  public static URI regionEndpoint(String region) {
    if (region == null || !region.matches("[a-z0-9-]{1,64}")) {
      throw new IllegalArgumentException("OCI region must be lowercase letters, digits and '-' (e.g. "
          + "eu-frankfurt-1), got '" + region + "'");
    }
    return URI.create("https://objectstorage." + region + ".oraclecloud.com");
  }

  /** The same settings listing {@code size} objects a page. */
  public OciSettings withPageSize(int size) {
    return new OciSettings(endpoint, namespace, bucket, prefix, signer, size, timeout);
  }

  /** The same settings signing with another key. */
  public OciSettings withSigner(OciSigner newSigner) {
    return new OciSettings(endpoint, namespace, bucket, prefix, newSigner, pageSize, timeout);
  }

  /** The same settings for another bucket and prefix. */
  public OciSettings withLocation(String newBucket, String newPrefix) {
    return new OciSettings(endpoint, namespace, newBucket, newPrefix, signer, pageSize, timeout);
  }

  /** The object name prefix with its trailing slash ({@code ""} for a whole bucket). */
  public String objectPrefix() {
    return prefix.isEmpty() ? "" : prefix + "/";
  }

  /** {@code oci://n/<namespace>/b/<bucket>/o/<prefix>}. */
  public String describe() {
    return "oci://n/" + namespace + "/b/" + bucket + "/o/" + prefix;
  }

  @Override
  public String toString() {
    return "OciSettings[endpoint=" + endpoint + ", namespace=" + namespace + ", bucket=" + bucket + ", prefix="
        + prefix + ", signer=" + signer + ", pageSize=" + pageSize + ", timeout=" + timeout + "]";
  }
}
