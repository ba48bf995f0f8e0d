package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.HubClient;
import dev.modelplane.operator.modelsource.fetch.HubSettings;
import dev.modelplane.operator.modelsource.fetch.ModelFileSource;
import dev.modelplane.operator.modelsource.fetch.S3Client;
import dev.modelplane.operator.modelsource.fetch.S3Settings;
import java.net.URI;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the client of a model's download source with its credentials: {@link HubClient} for {@code hf://} (the
 * agent's Hub endpoint, the token from the model's Secret) and {@link S3Client} for {@code s3://} (endpoint
 * {@code storage.parameters.endpoint}, else AWS for the region; region from the URI, else
 * {@code storage.parameters.region}, else us-east-1; keys from the model's Secret); with simulated downloads, a
 * {@link SimulatedModelSource} for either, whatever the credentials.
 */
final class ModelSourceFactory {
  /** Reads a Secret's decoded data; null when it does not exist. */
  @FunctionalInterface
  interface SecretReader {
    Map<String, String> read(String namespace, String name);
  }

  /** A source client, or why there is none. */
  sealed interface Outcome {
    record Ready(ModelFileSource source) implements Outcome {
    }

    record Refused(String reason, String message) implements Outcome {
    }
  }

  /** Reason of a model whose Secret the agent has no permission to read. */
  static final String SECRET_NOT_READABLE = "SecretNotReadable";

  private final SecretReader secrets;
  private final ModelAgentSettings settings;

  ModelSourceFactory(SecretReader secrets, ModelAgentSettings settings) {
    this.secrets = secrets;
    this.settings = settings;
  }

  Outcome create(AgentModel model, StorageUri uri) {
    if (settings.simulateDownloads()) {
      return new Outcome.Ready(new SimulatedModelSource(model.storageUri()));
    }
    Map<String, String> params = Optional.ofNullable(model.storage().parameters()).orElse(Map.of());
    String secretName = model.storage().key();
    String ns = model.secretNamespace(settings.namespace());
    Map<String, String> data;
    try {
      data = secretName == null || secretName.isBlank() ? null : secrets.read(ns, secretName);
    } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
      if (e.getCode() != 403) {
        throw e;
      }
      return new Outcome.Refused(SECRET_NOT_READABLE, "spec.storage.key: the model agent may not read Secret " + ns
          + "/" + secretName + ": a RoleBinding in namespace " + ns + " to the ClusterRole "
          + "modelplane-model-agent-secrets for the agents' service account is needed (docs/model-agent.md)");
    }
    try {
      return switch (uri) {
        case StorageUri.HuggingFace hf -> switch (StorageCredentials.huggingFaceToken(secretName, ns, data, params)) {
          case StorageCredentials.Lookup.Found<String> found -> new Outcome.Ready(new HubClient(new HubSettings(
              settings.hfEndpoint(), hf.repoId(), hf.revision(), found.value(), settings.requestTimeout())));
          case StorageCredentials.Lookup.Missing<String> missing ->
              new Outcome.Refused("MissingCredentials", missing.message());
        };
        case StorageUri.S3 s3 -> s3(s3, params, StorageCredentials.s3Keys(secretName, ns, data));
        case StorageUri.Oci oci -> OciSourceFactory.create(oci, params, secretName, ns, data, settings);
        case StorageUri.Azure az -> AzureSourceFactory.create(az, params, secretName, ns, data, settings);
        case StorageUri.Gcs gs -> GcsSourceFactory.create(gs, params, secretName, ns, data, settings);
        case StorageUri.GitHub gh -> GitHubSourceFactory.create(gh, params, secretName, ns, data, settings);
        default -> new Outcome.Refused("UnsupportedStorage", ModelPlanner.URI_FIELD + ": " + uri.scheme()
            + ":// is not downloaded by the model agent");
      };
    } catch (IllegalArgumentException e) {
      return new Outcome.Refused("InvalidStorageUri", ModelPlanner.URI_FIELD + ": " + e.getMessage());
    }
  }

  private Outcome s3(StorageUri.S3 s3, Map<String, String> params,
      StorageCredentials.Lookup<StorageCredentials.S3Keys> keys) {
    String region = s3.region().or(() -> Optional.ofNullable(params.get("region")).filter(r -> !r.isBlank()))
        .orElse(S3Settings.DEFAULT_REGION);
    String endpoint = Optional.ofNullable(params.get("endpoint")).filter(e -> !e.isBlank())
        .orElse("https://s3." + region + ".amazonaws.com");
    URI endpointUri;
    try {
      endpointUri = URI.create(endpoint.strip());
    } catch (IllegalArgumentException e) {
      return new Outcome.Refused("InvalidStorageUri", "spec.storage.parameters.endpoint is not a URL");
    }
    return switch (keys) {
      case StorageCredentials.Lookup.Missing<StorageCredentials.S3Keys> missing ->
          new Outcome.Refused("MissingCredentials", missing.message());
      case StorageCredentials.Lookup.Found<StorageCredentials.S3Keys> found -> {
        S3Settings s = new S3Settings(endpointUri, region, found.value().map(StorageCredentials.S3Keys::accessKeyId)
            .orElse(""), found.value().map(StorageCredentials.S3Keys::secretAccessKey).orElse(""),
            found.value().flatMap(StorageCredentials.S3Keys::sessionToken), s3.bucket(), s3.prefix(), 1000,
            settings.requestTimeout());
        yield new Outcome.Ready(new S3Client(s, settings.limits().maxListedObjects()));
      }
    };
  }
}
