package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.fetch.AzureConnectionString;
import dev.modelplane.operator.modelsource.fetch.AzureCredential;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which Secret keys hold an {@code az://} model's credentials. The names are the environment variables of Azure's
 * tools and OME's agent (upper case) and the storage parameters of OME's benchmark tooling (lower case); the first
 * group found wins, in this order:
 *
 * <ol>
 *   <li>a connection string: {@code AZURE_STORAGE_CONNECTION_STRING}, {@code azure_connection_string} or
 *       {@code connection_string} (its {@code AccountKey}, else {@code SharedAccessSignature}; its
 *       {@code BlobEndpoint} or {@code EndpointSuffix} sets the endpoint unless {@code storage.parameters.endpoint}
 *       does);</li>
 *   <li>the account key: {@code AZURE_STORAGE_ACCOUNT_KEY}, {@code AZURE_STORAGE_KEY}, {@code azure_account_key} or
 *       {@code account_key} (Shared Key signing);</li>
 *   <li>a SAS token: {@code AZURE_STORAGE_SAS_TOKEN}, {@code azure_sas_token} or {@code sas_token}.</li>
 * </ol>
 *
 * An account name in the Secret ({@code AZURE_STORAGE_ACCOUNT_NAME}, {@code AZURE_STORAGE_ACCOUNT},
 * {@code azure_account_name}, {@code account_name}, or the connection string's {@code AccountName}) must be the URI's.
 * No Secret named means anonymous reads (public containers). Azure AD credentials (service principal, managed or
 * workload identity) are refused with a message saying so: the agent does not fetch Azure AD tokens. Messages name the
 * Secret and its keys, never a value.
 */
final class AzureCredentials {
  static final List<String> CONNECTION_STRING_KEYS = List.of("AZURE_STORAGE_CONNECTION_STRING",
      "azure_connection_string", "connection_string");
  static final List<String> ACCOUNT_KEY_KEYS = List.of("AZURE_STORAGE_ACCOUNT_KEY", "AZURE_STORAGE_KEY",
      "azure_account_key", "account_key");
  static final List<String> SAS_KEYS = List.of("AZURE_STORAGE_SAS_TOKEN", "azure_sas_token", "sas_token");
  static final List<String> ACCOUNT_NAME_KEYS = List.of("AZURE_STORAGE_ACCOUNT_NAME", "AZURE_STORAGE_ACCOUNT",
      "azure_account_name", "account_name");
  private static final List<String> AZURE_AD_KEYS = List.of("AZURE_CLIENT_ID", "AZURE_CLIENT_SECRET",
      "AZURE_TENANT_ID", "AZURE_FEDERATED_TOKEN_FILE", "AZURE_CLIENT_CERTIFICATE_PATH", "client_id", "client_secret",
      "tenant_id");

  /**
   * How to reach the account.
   *
   * @param credential anonymous, account key or SAS
   * @param endpoint the Blob endpoint a connection string gives, if any
   */
  record Access(AzureCredential credential, Optional<URI> endpoint) {
  }

  private AzureCredentials() {
  }

  /**
   * The credentials for {@code account} from the Secret {@code secretName} (null: none named).
   *
   * @throws IllegalArgumentException when a value is unusable (not base64, not a SAS, a connection string of another
   *     account); the message names the Secret and key
   */
  static StorageCredentials.Lookup<Access> lookup(String account, String secretName, String namespace,
      Map<String, String> data) {
    if (secretName == null || secretName.isBlank()) {
      return new StorageCredentials.Lookup.Found<>(Optional.of(new Access(new AzureCredential.Anonymous(),
          Optional.empty())));
    }
    String secret = "Secret '" + secretName + "' in namespace '" + namespace + "'";
    if (data == null) {
      return new StorageCredentials.Lookup.Missing<>("Secret '" + secretName + "' (spec.storage.key) not found in "
          + "namespace '" + namespace + "'");
    }
    Optional<String> key = firstKey(data, CONNECTION_STRING_KEYS);
    if (key.isPresent()) {
      AzureConnectionString parsed;
      try {
        parsed = AzureConnectionString.parse(data.get(key.get()));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(secret + ", key " + key.get() + ": " + e.getMessage());
      }
      sameAccount(account, parsed.accountName(), secret + " (AccountName in " + key.get() + ")");
      return found(new Access(parsed.credential(), parsed.blobEndpoint()));
    }
    firstKey(data, ACCOUNT_NAME_KEYS).ifPresent(k -> sameAccount(account, Optional.of(data.get(k).strip()),
        secret + " (" + k + ")"));
    key = firstKey(data, ACCOUNT_KEY_KEYS);
    if (key.isPresent()) {
      String name = key.get();
      return found(new Access(credential(() -> new AzureCredential.SharedKey(data.get(name)), secret, name),
          Optional.empty()));
    }
    key = firstKey(data, SAS_KEYS);
    if (key.isPresent()) {
      String name = key.get();
      return found(new Access(credential(() -> new AzureCredential.Sas(data.get(name)), secret, name),
          Optional.empty()));
    }
    String wanted = String.join(", ", CONNECTION_STRING_KEYS) + "; or " + String.join(", ", ACCOUNT_KEY_KEYS)
        + "; or " + String.join(", ", SAS_KEYS);
    if (firstKey(data, AZURE_AD_KEYS).isPresent()) {
      return new StorageCredentials.Lookup.Missing<>(secret + " holds Azure AD credentials ("
          + String.join(", ", AZURE_AD_KEYS.stream().filter(data::containsKey).toList()) + "), which the model agent "
          + "does not use for az:// downloads; give it one of the keys " + wanted);
    }
    return new StorageCredentials.Lookup.Missing<>(secret + " needs one of the keys " + wanted);
  }

  private static AzureCredential credential(java.util.function.Supplier<AzureCredential> make, String secret,
      String key) {
    try {
      return make.get();
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(secret + ", key " + key + ": " + e.getMessage());
    }
  }

  private static void sameAccount(String account, Optional<String> named, String where) {
    if (named.isPresent() && !named.get().equals(account)) {
      throw new IllegalArgumentException(where + " is for storage account '" + named.get() + "', not for account '"
          + account + "' of " + ModelPlanner.URI_FIELD);
    }
  }

  private static StorageCredentials.Lookup<Access> found(Access access) {
    return new StorageCredentials.Lookup.Found<>(Optional.of(access));
  }

  private static Optional<String> firstKey(Map<String, String> data, List<String> keys) {
    return keys.stream().filter(k -> data.get(k) != null && !data.get(k).isBlank()).findFirst();
  }
}
