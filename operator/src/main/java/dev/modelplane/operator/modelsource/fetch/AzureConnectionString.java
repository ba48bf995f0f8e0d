package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * An Azure Storage connection string ({@code DefaultEndpointsProtocol=https;AccountName=…;AccountKey=…;
 * EndpointSuffix=core.windows.net}, or with {@code BlobEndpoint=…} and {@code SharedAccessSignature=…}, or
 * {@code UseDevelopmentStorage=true} for the local emulator), the parts the Blob service needs. Setting names are
 * matched without regard to case, as Azure's tools do. {@link #toString()} and error messages never show a value
 * that could be secret.
 *
 * @param accountName {@code AccountName}, if given
 * @param credential the account key if given, else the SAS, else anonymous
 * @param blobEndpoint {@code BlobEndpoint}, else one made of the protocol, account name and endpoint suffix when
 *     an account name is given
 */
public record AzureConnectionString(Optional<String> accountName, AzureCredential credential,
    Optional<URI> blobEndpoint) {
  /** The emulator's fixed account, which {@code UseDevelopmentStorage=true} means. */
  public static final String DEV_ACCOUNT = "devstoreaccount1";
  /** The emulator account's published, well-known key (not a secret: every Azurite and storage emulator has it). */
  public static final String DEV_ACCOUNT_KEY =
      "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

  /**
   * Parses a connection string.
   *
   * @throws IllegalArgumentException when it is not {@code Name=value} pairs separated by {@code ;}, or names a
   *     setting whose value is unusable; the message names the setting, never its value
   */
  public static AzureConnectionString parse(String text) {
    Map<String, String> settings = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    int index = 0;
    for (String part : text.strip().split(";")) {
      index++;
      if (part.isBlank()) {
        continue;
      }
      int eq = part.indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("the Azure connection string's part " + index + " is not Name=value");
      }
      settings.put(part.substring(0, eq).strip(), part.substring(eq + 1).strip());
    }
    if ("true".equalsIgnoreCase(settings.get("UseDevelopmentStorage"))) {
      String proxy = Optional.ofNullable(settings.get("DevelopmentStorageProxyUri")).orElse("http://127.0.0.1");
      return new AzureConnectionString(Optional.of(DEV_ACCOUNT), new AzureCredential.SharedKey(DEV_ACCOUNT_KEY),
          Optional.of(endpoint(proxy.replaceAll("/+$", "") + ":10000/" + DEV_ACCOUNT, "DevelopmentStorageProxyUri")));
    }
    Optional<String> account = nonBlank(settings.get("AccountName"));
    AzureCredential credential;
    if (nonBlank(settings.get("AccountKey")).isPresent()) {
      if (account.isEmpty()) {
        throw new IllegalArgumentException("the Azure connection string has an AccountKey but no AccountName");
      }
      credential = new AzureCredential.SharedKey(settings.get("AccountKey"));
    } else if (nonBlank(settings.get("SharedAccessSignature")).isPresent()) {
      credential = new AzureCredential.Sas(settings.get("SharedAccessSignature"));
    } else {
      credential = new AzureCredential.Anonymous();
    }
    Optional<URI> blob = nonBlank(settings.get("BlobEndpoint")).map(e -> endpoint(e, "BlobEndpoint"));
    if (blob.isEmpty() && account.isPresent()) {
      String protocol = nonBlank(settings.get("DefaultEndpointsProtocol")).orElse("https").toLowerCase(Locale.ROOT);
      if (!protocol.equals("https") && !protocol.equals("http")) {
        throw new IllegalArgumentException("the Azure connection string's DefaultEndpointsProtocol must be http or "
            + "https");
      }
      String suffix = nonBlank(settings.get("EndpointSuffix")).orElse("core.windows.net");
      blob = Optional.of(endpoint(protocol + "://" + account.get() + ".blob." + suffix, "EndpointSuffix"));
    }
    return new AzureConnectionString(account, credential, blob);
  }

  private static URI endpoint(String value, String setting) {
    try {
      URI uri = URI.create(value);
      if (uri.getHost() == null || uri.getRawQuery() != null) {
        throw new IllegalArgumentException("no host, or a query");
      }
      return uri;
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the Azure connection string's " + setting + " does not make an http(s) "
          + "URL with a host and no query");
    }
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty());
  }

  @Override
  public String toString() {
    return "AzureConnectionString[accountName=" + accountName.orElse("<none>") + ", credential=" + credential
        + ", blobEndpoint=" + blobEndpoint.map(HttpSender::origin).orElse("<none>") + "]";
  }
}
