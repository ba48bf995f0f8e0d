package dev.modelplane.operator.ome.modelagent;

import dev.modelplane.operator.modelsource.StorageUri;
import dev.modelplane.operator.modelsource.fetch.GitHubReleaseClient;
import dev.modelplane.operator.modelsource.fetch.GitHubSettings;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Builds the {@link GitHubReleaseClient} of a {@code github://owner/repo[@tag]} model. The API is
 * {@code storage.parameters.endpoint}, else GitHub's. With no {@code storage.key}, requests are anonymous (public
 * repositories, GitHub's lower rate limit); otherwise the token is the Secret's first set key of:
 * {@code storage.parameters.secretKey} when given, {@value #GITHUB_TOKEN_KEY} (the key the BenchmarkJob passes to
 * genai-bench), {@code github_token} (OME's parameter name), {@code token}. Messages name the Secret, its namespace
 * and the keys, never a value.
 */
final class GitHubSourceFactory {
  static final String GITHUB_TOKEN_KEY = "GITHUB_TOKEN";
  private static final List<String> KEYS = List.of(GITHUB_TOKEN_KEY, "github_token", "token");

  private GitHubSourceFactory() {
  }

  static ModelSourceFactory.Outcome create(StorageUri.GitHub gh, Map<String, String> params, String secretName,
      String namespace, Map<String, String> data, ModelAgentSettings settings) {
    URI api;
    try {
      api = URI.create(nonBlank(params.get("endpoint")).orElse(GitHubSettings.DEFAULT_API));
    } catch (IllegalArgumentException e) {
      return new ModelSourceFactory.Outcome.Refused("InvalidStorageUri",
          "spec.storage.parameters.endpoint is not a URL");
    }
    Optional<String> token = Optional.empty();
    if (secretName != null && !secretName.isBlank()) {
      if (data == null) {
        return new ModelSourceFactory.Outcome.Refused("MissingCredentials", "Secret '" + secretName
            + "' (spec.storage.key) not found in namespace '" + namespace + "'");
      }
      List<String> keys = keys(params);
      token = keys.stream().map(k -> nonBlank(data.get(k))).flatMap(Optional::stream).findFirst();
      if (token.isEmpty()) {
        return new ModelSourceFactory.Outcome.Refused("MissingCredentials", "Secret '" + secretName
            + "' in namespace '" + namespace + "' has none of the keys " + String.join(", ", keys));
      }
      if (token.get().chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
        return new ModelSourceFactory.Outcome.Refused("InvalidCredentials", "Secret '" + secretName
            + "' in namespace '" + namespace + "': the GitHub token must be printable ASCII without spaces");
      }
    }
    GitHubSettings s = new GitHubSettings(api, gh.owner(), gh.repository(), gh.tag(), token, 100,
        settings.requestTimeout());
    return new ModelSourceFactory.Outcome.Ready(new GitHubReleaseClient(s, settings.limits().maxListedObjects()));
  }

  private static List<String> keys(Map<String, String> params) {
    List<String> keys = new java.util.ArrayList<>();
    nonBlank(params.get("secretKey")).ifPresent(keys::add);
    keys.addAll(KEYS);
    return keys.stream().distinct().toList();
  }

  private static Optional<String> nonBlank(String value) {
    return Optional.ofNullable(value).map(String::strip).filter(v -> !v.isEmpty());
  }
}
