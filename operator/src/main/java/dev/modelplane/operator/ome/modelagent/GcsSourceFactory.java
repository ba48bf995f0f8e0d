package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.GcsAuth;
import dev.modelplane.operator.modelsource.fetch.GcsClient;
import dev.modelplane.operator.modelsource.fetch.GcsSettings;
import dev.modelplane.operator.modelsource.fetch.ServiceAccountKey;
import dev.modelplane.operator.modelsource.fetch.ServiceAccountTokens;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the {@link GcsClient} of a {@code gs://} model. The endpoint is {@code storage.parameters.endpoint}, else
 * Google's. Credentials come from the Secret {@code storage.key} names; with none named, requests are anonymous
 * (public buckets). In the Secret, the first of these keys that is set is used:
 *
 * <ol>
 *   <li>{@code storage.parameters.secretKey}, when given: the key holding a service account key file;</li>
 *   <li>{@value #CREDENTIALS_KEY}: a service account key file (the key the BenchmarkJob mounts for genai-bench);</li>
 *   <li>{@value #KEY_JSON_KEY}: the same, by the name OME's GCP auth configuration gives it;</li>
 *   <li>{@value #ACCESS_TOKEN_KEY}: a ready OAuth 2.0 access token.</li>
 * </ol>
 *
 * Messages name the Secret, its namespace and the keys, never a value.
 */
final class GcsSourceFactory {
  static final String CREDENTIALS_KEY = "credentials.json";
  static final String KEY_JSON_KEY = "key_json";
  static final String ACCESS_TOKEN_KEY = "access_token";

  private GcsSourceFactory() {
  }

  static ModelSourceFactory.Outcome create(StorageUri.Gcs gs, Map<String, String> params, String secretName,
      String namespace, Map<String, String> data, ModelAgentSettings settings) {
    String endpoint = nonBlank(params.get("endpoint")).orElse(GcsSettings.DEFAULT_ENDPOINT);
    URI endpointUri;
    try {
      endpointUri = URI.create(endpoint);
    } catch (IllegalArgumentException e) {
      return new ModelSourceFactory.Outcome.Refused("InvalidStorageUri",
          "spec.storage.parameters.endpoint is not a URL");
    }
    GcsAuth auth;
    try {
      Optional<GcsAuth> found = auth(params, secretName, namespace, data, settings.requestTimeout());
      if (found.isEmpty()) {
        return new ModelSourceFactory.Outcome.Refused("MissingCredentials", missing(params, secretName, namespace,
            data));
      }
      auth = found.get();
    } catch (InvalidKey e) {
      return new ModelSourceFactory.Outcome.Refused("InvalidCredentials", e.getMessage());
    }
    GcsSettings s = new GcsSettings(endpointUri, gs.bucket(), gs.object(), auth, 1000, settings.requestTimeout());
    return new ModelSourceFactory.Outcome.Ready(new GcsClient(s, settings.limits().maxListedObjects()));
  }

  /** The credentials; empty when a Secret is named but has none of the keys (or does not exist). */
  static Optional<GcsAuth> auth(Map<String, String> params, String secretName, String namespace,
      Map<String, String> data, Duration timeout) throws InvalidKey {
    if (secretName == null || secretName.isBlank()) {
      return Optional.of(GcsAuth.anonymous());
    }
    if (data == null) {
      return Optional.empty();
    }
    for (String key : keyFileKeys(params)) {
      Optional<String> json = nonBlank(data.get(key));
      if (json.isPresent()) {
        try {
          return Optional.of(new ServiceAccountTokens(ServiceAccountKey.parse(json.get()), timeout));
        } catch (IllegalArgumentException e) {
          throw new InvalidKey("Secret '" + secretName + "' in namespace '" + namespace + "': key '" + key
              + "' is not a usable service account key: " + e.getMessage());
        }
      }
    }
    Optional<String> token = nonBlank(data.get(ACCESS_TOKEN_KEY));
    if (token.isPresent()) {
      try {
        return Optional.of(new GcsAuth.AccessToken(token.get()));
      } catch (IllegalArgumentException e) {
        throw new InvalidKey("Secret '" + secretName + "' in namespace '" + namespace + "': key '"
            + ACCESS_TOKEN_KEY + "': " + e.getMessage());
      }
    }
    return Optional.empty();
  }

  private static String missing(Map<String, String> params, String secretName, String namespace,
      Map<String, String> data) {
    if (data == null) {
      return "Secret '" + secretName + "' (spec.storage.key) not found in namespace '" + namespace + "'";
    }
    return "Secret '" + secretName + "' in namespace '" + namespace + "' has none of the keys "
        + String.join(", ", keyFileKeys(params)) + " (a service account key file) or " + ACCESS_TOKEN_KEY;
  }

  private static List<String> keyFileKeys(Map<String, String> params) {
    return nonBlank(params.get("secretKey")).map(k -> List.of(k, CREDENTIALS_KEY, KEY_JSON_KEY))
        .orElse(List.of(CREDENTIALS_KEY, KEY_JSON_KEY)).stream().distinct().toList();
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty());
  }

  /** A Secret key holds something that is not a usable credential. */
  static final class InvalidKey extends Exception {
    InvalidKey(String message) {
      super(message);
    }
  }
}
