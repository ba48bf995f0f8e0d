package dev.modelplane.operator.ome.modelagent;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which Secret keys hold a model source's credentials, as OME's agent reads them. Works on a Secret's decoded data
 * (null when the Secret named by {@code storage.key} does not exist); messages name the Secret and the keys looked
 * for, never a value.
 *
 * <ul>
 *   <li>Hugging Face: the key {@code storage.parameters.secretKey}, else {@code token}; when the Secret lacks it, or no
 *       Secret is named, {@code storage.parameters.token}; no token at all is fine (public repositories).</li>
 *   <li>S3: {@code AWS_ACCESS_KEY_ID} and {@code AWS_SECRET_ACCESS_KEY} (optionally {@code AWS_SESSION_TOKEN}), or the
 *       lower-case {@code access_key_id}, {@code secret_access_key} ({@code session_token}); no Secret named means
 *       unsigned requests (public buckets).</li>
 * </ul>
 */
public final class StorageCredentials {
  /** The default Secret key of a Hugging Face token. */
  public static final String HF_TOKEN_KEY = "token";

  private StorageCredentials() {
  }

  /** A credential that was found, or why it could not be. */
  public sealed interface Lookup<T> {
    /** Found (or legitimately absent: an empty Optional). */
    record Found<T>(Optional<T> value) implements Lookup<T> {
    }

    /** Named but not found; {@code message} names the Secret, its namespace and the keys. */
    record Missing<T>(String message) implements Lookup<T> {
    }
  }

  /**
   * S3 credentials.
   *
   * @param accessKeyId the access key id
   * @param secretAccessKey the secret key; {@link #toString()} hides it
   * @param sessionToken the session token of temporary credentials, if any; hidden too
   */
  public record S3Keys(String accessKeyId, String secretAccessKey, Optional<String> sessionToken) {
    @Override
    public String toString() {
      return "S3Keys[accessKeyId=" + accessKeyId + ", secretAccessKey=<set>, sessionToken="
          + (sessionToken.isPresent() ? "<set>" : "<none>") + "]";
    }
  }

  /**
   * The Hugging Face token.
   *
   * @param secretName {@code storage.key}, or null
   * @param namespace where the Secret was looked up (for the message)
   * @param secretData the Secret's decoded data, or null if it does not exist
   * @param parameters {@code storage.parameters}, or null
   */
  public static Lookup<String> huggingFaceToken(String secretName, String namespace, Map<String, String> secretData,
      Map<String, String> parameters) {
    Map<String, String> params = parameters == null ? Map.of() : parameters;
    Optional<String> fallback = nonBlank(params.get("token"));
    if (secretName == null || secretName.isBlank()) {
      return new Lookup.Found<>(fallback);
    }
    String key = nonBlank(params.get("secretKey")).orElse(HF_TOKEN_KEY);
    if (secretData == null) {
      return fallback.isPresent() ? new Lookup.Found<>(fallback) : new Lookup.Missing<>("Secret '" + secretName
          + "' (spec.storage.key) not found in namespace '" + namespace + "'");
    }
    Optional<String> token = nonBlank(secretData.get(key));
    if (token.isPresent()) {
      return new Lookup.Found<>(token);
    }
    return fallback.isPresent() ? new Lookup.Found<>(fallback) : new Lookup.Missing<>("Secret '" + secretName
        + "' in namespace '" + namespace + "' has no key '" + key + "'"
        + (params.containsKey("secretKey") ? " (spec.storage.parameters.secretKey)" : ""));
  }

  /**
   * S3 credentials; an empty Optional when no Secret is named.
   *
   * @param secretName {@code storage.key}, or null
   * @param namespace where the Secret was looked up (for the message)
   * @param secretData the Secret's decoded data, or null if it does not exist
   */
  public static Lookup<S3Keys> s3Keys(String secretName, String namespace, Map<String, String> secretData) {
    if (secretName == null || secretName.isBlank()) {
      return new Lookup.Found<>(Optional.empty());
    }
    if (secretData == null) {
      return new Lookup.Missing<>("Secret '" + secretName + "' (spec.storage.key) not found in namespace '"
          + namespace + "'");
    }
    for (List<String> keys : List.of(List.of("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"),
        List.of("access_key_id", "secret_access_key", "session_token"))) {
      Optional<String> id = nonBlank(secretData.get(keys.get(0)));
      Optional<String> secret = nonBlank(secretData.get(keys.get(1)));
      if (id.isPresent() && secret.isPresent()) {
        return new Lookup.Found<>(Optional.of(new S3Keys(id.get(), secret.get(), nonBlank(secretData.get(keys.get(2))))));
      }
    }
    return new Lookup.Missing<>("Secret '" + secretName + "' in namespace '" + namespace + "' needs the keys "
        + "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or access_key_id and secret_access_key)");
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty());
  }
}
