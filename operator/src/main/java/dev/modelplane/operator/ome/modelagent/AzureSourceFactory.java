package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.AzureBlobClient;
import dev.modelplane.operator.modelsource.fetch.AzureBlobSettings;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the {@link AzureBlobClient} of an {@code az://<account>/<container>/<prefix>} model: the endpoint is
 * {@code storage.parameters.endpoint} (an emulator's path-style address names the account in its path, e.g.
 * {@code http://127.0.0.1:10000/devstoreaccount1}), else the connection string's, else
 * {@code https://<account>.blob.core.windows.net}; the credentials come from the model's Secret
 * ({@link AzureCredentials}).
 */
final class AzureSourceFactory {
  private AzureSourceFactory() {
  }

  static ModelSourceFactory.Outcome create(StorageUri.Azure az, Map<String, String> params, String secretName,
      String namespace, Map<String, String> data, ModelAgentSettings settings) {
    StorageCredentials.Lookup<AzureCredentials.Access> lookup;
    try {
      lookup = AzureCredentials.lookup(az.account(), secretName, namespace, data);
    } catch (IllegalArgumentException e) {
      return new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "spec.storage.key: " + e.getMessage());
    }
    return switch (lookup) {
      case StorageCredentials.Lookup.Missing<AzureCredentials.Access> missing ->
          new ModelSourceFactory.Outcome.Refused("MissingCredentials", missing.message());
      case StorageCredentials.Lookup.Found<AzureCredentials.Access> found -> {
        AzureCredentials.Access access = found.value().orElseThrow();
        Optional<String> param = Optional.ofNullable(params.get("endpoint")).map(String::strip)
            .filter(e -> !e.isEmpty());
        URI endpoint;
        try {
          endpoint = param.map(URI::create).or(access::endpoint)
              .orElseGet(() -> AzureBlobSettings.publicEndpoint(az.account()));
        } catch (IllegalArgumentException e) {
          yield new ModelSourceFactory.Outcome.Refused("InvalidStorageUri",
              "spec.storage.parameters.endpoint is not a URL");
        }
        try {
          endpoint = AzureBlobSettings.checkedEndpoint(endpoint);
        } catch (IllegalArgumentException e) {
          yield new ModelSourceFactory.Outcome.Refused("InvalidStorageUri", (param.isPresent()
              ? "spec.storage.parameters.endpoint: " : "spec.storage.key: the connection string's ") + e.getMessage());
        }
        AzureBlobSettings s = new AzureBlobSettings(endpoint, az.account(), az.container(), az.blobPath(),
            access.credential(), 5000, settings.requestTimeout());
        yield new ModelSourceFactory.Outcome.Ready(new AzureBlobClient(s, settings.limits().maxListedObjects()));
      }
    };
  }
}
