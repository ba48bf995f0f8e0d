package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where and how to read a model from Azure Blob Storage.
 *
 * @param endpoint the Blob service's base URL: {@code https://<account>.blob.core.windows.net} (host style), or an
 *     emulator's path-style address that names the account in its path ({@code http://127.0.0.1:10000/<account>});
 *     container and blob names are appended to it
 * @param account the storage account name (the one Shared Key signatures name)
 * @param container the container name
 * @param prefix the blob name prefix of the model's "directory" (no leading slash; a trailing slash is implied), or
 *     empty for the whole container
 * @param credential anonymous, account key or SAS
 * @param pageSize how many blobs each List Blobs page asks for (1 to 5000)
 * @param timeout connect timeout, and how long to wait for each response's headers
 */
public record AzureBlobSettings(URI endpoint, String account, String container, String prefix,
    AzureCredential credential, int pageSize, Duration timeout) {
  /** The host suffix of the public cloud's Blob service. */
  public static final String PUBLIC_CLOUD_SUFFIX = "blob.core.windows.net";

  /** Account names: Azure allows 3-24 lower-case letters and digits; emulators' accounts follow the same rule. */
  private static final Pattern ACCOUNT = Pattern.compile("[a-z0-9]{3,24}");
  /** Container names: 3-63 lower-case letters, digits and single hyphens, or the special $root and $web. */
  private static final Pattern CONTAINER = Pattern.compile("[a-z0-9](?!.*--)[a-z0-9-]{1,61}[a-z0-9]|\\$root|\\$web");

  public AzureBlobSettings {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(account, "account");
    Objects.requireNonNull(container, "container");
    prefix = prefix == null ? "" : prefix.replaceAll("^/+", "").replaceAll("/+$", "");
    Objects.requireNonNull(credential, "credential");
    Objects.requireNonNull(timeout, "timeout");
    endpoint = checkedEndpoint(endpoint);
    if (!ACCOUNT.matcher(account).matches()) {
      throw new IllegalArgumentException("Azure storage account name must be 3-24 lower-case letters and digits, got '"
          + account + "'");
    }
    if (!CONTAINER.matcher(container).matches()) {
      throw new IllegalArgumentException("Azure container name must be 3-63 lower-case letters, digits and single "
          + "hyphens, starting and ending with a letter or digit, got '" + container + "'");
    }
    if (pageSize < 1 || pageSize > 5000) {
      throw new IllegalArgumentException("Azure list page size must be 1 to 5000, got " + pageSize);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /**
   * A Blob endpoint without its trailing slashes.
   *
   * @throws IllegalArgumentException when it is not an http(s) URL with a host, or has a query, fragment or user info
   */
  public static URI checkedEndpoint(URI endpoint) {
    String scheme = endpoint.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme) || endpoint.getHost() == null) {
      throw new IllegalArgumentException("Azure Blob endpoint must be an http(s) URL with a host, got '"
          + dev.modelplane.operator.modelsource.RedactedUrl.of(endpoint.toString()) + "'");
    }
    if (endpoint.getRawQuery() != null || endpoint.getRawUserInfo() != null || endpoint.getRawFragment() != null) {
      throw new IllegalArgumentException("Azure Blob endpoint must not have a query, fragment or user info (a SAS "
          + "token belongs in the Secret), got " + HttpSender.origin(endpoint));
    }
    return URI.create(endpoint.toString().replaceAll("/+$", ""));
  }

  /** Settings for the public cloud's endpoint of {@code account}, 5000 blobs a page, 30 s timeout. */
  public static AzureBlobSettings of(String account, String container, String prefix, AzureCredential credential) {
    return new AzureBlobSettings(publicEndpoint(account), account, container, prefix, credential, 5000,
        Duration.ofSeconds(30));
  }

  /** {@code https://<account>.blob.core.windows.net}. */
  public static URI publicEndpoint(String account) {
    return URI.create("https://" + account + "." + PUBLIC_CLOUD_SUFFIX);
  }

  /** The same settings at another endpoint. */
  public AzureBlobSettings withEndpoint(URI newEndpoint) {
    return new AzureBlobSettings(newEndpoint, account, container, prefix, credential, pageSize, timeout);
  }

  /** The same settings with another credential. */
  public AzureBlobSettings withCredential(AzureCredential newCredential) {
    return new AzureBlobSettings(endpoint, account, container, prefix, newCredential, pageSize, timeout);
  }

  /** The same settings listing {@code size} blobs a page. */
  public AzureBlobSettings withPageSize(int size) {
    return new AzureBlobSettings(endpoint, account, container, prefix, credential, size, timeout);
  }

  /** The same settings with another timeout. */
  public AzureBlobSettings withTimeout(Duration newTimeout) {
    return new AzureBlobSettings(endpoint, account, container, prefix, credential, pageSize, newTimeout);
  }

  /** The same settings for another container and prefix. */
  public AzureBlobSettings withLocation(String newContainer, String newPrefix) {
    return new AzureBlobSettings(endpoint, account, newContainer, newPrefix, credential, pageSize, timeout);
  }

  /** The blob name prefix with its trailing slash ({@code ""} for a whole container). */
  public String keyPrefix() {
    return prefix.isEmpty() ? "" : prefix + "/";
  }

  @Override
  public String toString() {
    return "AzureBlobSettings[endpoint=" + HttpSender.origin(endpoint) + endpoint.getRawPath() + ", account="
        + account + ", container=" + container + ", prefix=" + prefix + ", credential=" + credential + ", pageSize="
        + pageSize + ", timeout=" + timeout + "]";
  }
}
