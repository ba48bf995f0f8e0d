package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where and how to read a Hugging Face Hub repository.
 *
 * @param endpoint the Hub's base URL ({@code https://huggingface.co}, or a mirror as {@code HF_ENDPOINT} names it)
 * @param repoId {@code org/name} (or a legacy single-segment {@code name})
 * @param revision a branch, tag or commit sha ({@code main} by default)
 * @param token a bearer token for private or gated repositories; {@link #toString()} never shows it
 * @param timeout connect timeout, and how long to wait for each response's headers
 */
public record HubSettings(URI endpoint, String repoId, String revision, Optional<String> token, Duration timeout) {
  /** The public Hub. */
  public static final URI DEFAULT_ENDPOINT = URI.create("https://huggingface.co");
  /** The revision read when none is given. */
  public static final String DEFAULT_REVISION = "main";

  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,95}");

  public HubSettings {
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(repoId, "repoId");
    Objects.requireNonNull(revision, "revision");
    token = Objects.requireNonNull(token, "token").filter(t -> !t.isBlank());
    Objects.requireNonNull(timeout, "timeout");
    String scheme = endpoint.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme) || endpoint.getHost() == null) {
      throw new IllegalArgumentException("Hugging Face endpoint must be an http(s) URL with a host, got '"
          + dev.modelplane.operator.modelsource.RedactedUrl.of(endpoint.toString()) + "'");
    }
    if (endpoint.getRawQuery() != null || endpoint.getRawUserInfo() != null) {
      throw new IllegalArgumentException("Hugging Face endpoint must not have a query or user info, got "
          + HttpSender.origin(endpoint));
    }
    endpoint = URI.create(endpoint.toString().replaceAll("/+$", ""));
    if (!validRepoId(repoId)) {
      throw new IllegalArgumentException("Hugging Face repository id must be 'org/name' (letters, digits, '.', '_', "
          + "'-'), got '" + repoId + "'");
    }
    if (revision.isBlank() || revision.contains("..") || revision.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
      throw new IllegalArgumentException("Hugging Face revision must be a branch, tag or commit without spaces or "
          + "'..', got '" + revision + "'");
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /** Settings for {@code repoId} at {@code revision} on the public Hub, without a token, with a 30 s timeout. */
  public static HubSettings of(String repoId, String revision) {
    return new HubSettings(DEFAULT_ENDPOINT, repoId, revision == null ? DEFAULT_REVISION : revision,
        Optional.empty(), Duration.ofSeconds(30));
  }

  /**
   * Settings the way huggingface_hub reads its environment: {@code HF_ENDPOINT} overrides the endpoint (a trailing
   * slash is dropped), {@code HF_TOKEN} is the token unless one is given.
   */
  public static HubSettings fromEnvironment(String repoId, String revision, String token, Map<String, String> env) {
    String endpoint = env.getOrDefault("HF_ENDPOINT", "");
    String envToken = env.getOrDefault("HF_TOKEN", "");
    return new HubSettings(endpoint.isBlank() ? DEFAULT_ENDPOINT : URI.create(endpoint.strip()), repoId,
        revision == null || revision.isBlank() ? DEFAULT_REVISION : revision,
        Optional.ofNullable(token).filter(t -> !t.isBlank()).or(() -> Optional.of(envToken)),
        Duration.ofSeconds(30));
  }

  /** The same settings with another endpoint. */
  public HubSettings withEndpoint(URI newEndpoint) {
    return new HubSettings(newEndpoint, repoId, revision, token, timeout);
  }

  /** The same settings with a token. */
  public HubSettings withToken(String newToken) {
    return new HubSettings(endpoint, repoId, revision, Optional.ofNullable(newToken), timeout);
  }

  /** The same settings with another timeout. */
  public HubSettings withTimeout(Duration newTimeout) {
    return new HubSettings(endpoint, repoId, revision, token, newTimeout);
  }

  static boolean validRepoId(String repoId) {
    String[] parts = repoId.split("/", -1);
    if (parts.length > 2) {
      return false;
    }
    for (String part : parts) {
      if (!SEGMENT.matcher(part).matches() || part.contains("..") || part.endsWith(".git")) {
        return false;
      }
    }
    return true;
  }

  @Override
  public String toString() {
    return "HubSettings[endpoint=" + endpoint + ", repoId=" + repoId + ", revision=" + revision + ", token="
        + (token.isPresent() ? "<set>" : "<none>") + ", timeout=" + timeout + "]";
  }
}
