package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Where and how to read a model from a GitHub release's assets.
 *
 * @param api the REST API's base URL, {@value #DEFAULT_API} (GitHub Enterprise: {@code https://host/api/v3})
 * @param owner the repository's owner
 * @param repository the repository's name
 * @param tag the release's tag, or {@value #LATEST} for the newest release
 * @param token a token sent as {@code Authorization: Bearer} to the API's origin only; never shown
 * @param pageSize how many assets each page of the asset listing asks for (1 to 100)
 * @param timeout connect timeout, and how long to wait for each response's headers
 */
public record GitHubSettings(URI api, String owner, String repository, String tag, Optional<String> token,
    int pageSize, Duration timeout) {
  /** GitHub's API, used when {@code storage.parameters.endpoint} names none. */
  public static final String DEFAULT_API = "https://api.github.com";
  /** The tag that means the newest release. */
  public static final String LATEST = "latest";

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,100}");

  public GitHubSettings {
    Objects.requireNonNull(api, "api");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(repository, "repository");
    Objects.requireNonNull(tag, "tag");
    Objects.requireNonNull(timeout, "timeout");
    token = Objects.requireNonNull(token, "token").map(String::strip).filter(t -> !t.isEmpty());
    String scheme = api.getScheme();
    if (!"http".equals(scheme) && !"https".equals(scheme) || api.getHost() == null) {
      throw new IllegalArgumentException("GitHub API endpoint must be an http(s) URL with a host, got '"
          + dev.modelplane.operator.modelsource.RedactedUrl.of(api.toString()) + "'");
    }
    if (api.getRawQuery() != null || api.getRawUserInfo() != null) {
      throw new IllegalArgumentException("GitHub API endpoint must not have a query or user info, got "
          + HttpSender.origin(api));
    }
    api = URI.create(api.toString().replaceAll("/+$", ""));
    if (!NAME.matcher(owner).matches() || !NAME.matcher(repository).matches() || repository.matches("\\.+")) {
      throw new IllegalArgumentException("GitHub owner and repository must be letters, digits, '-', '_' and '.', got '"
          + owner + "/" + repository + "'");
    }
    if (tag.isBlank() || tag.chars().anyMatch(c -> c < 0x21 || c == 0x7f)) {
      throw new IllegalArgumentException("GitHub release tag must be non-empty without spaces or control characters");
    }
    if (token.isPresent() && token.get().chars().anyMatch(c -> c < 0x21 || c > 0x7e)) {
      throw new IllegalArgumentException("a GitHub token must be printable ASCII without spaces");
    }
    if (pageSize < 1 || pageSize > 100) {
      throw new IllegalArgumentException("GitHub asset page size must be 1 to 100, got " + pageSize);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, got " + timeout);
    }
  }

  /** Settings for {@code owner/repository@tag} at {@code api}, 100 assets a page, 30 s timeout. */
  public static GitHubSettings of(URI api, String owner, String repository, String tag, Optional<String> token) {
    return new GitHubSettings(api, owner, repository, tag, token, 100, Duration.ofSeconds(30));
  }

  /** The same settings listing {@code size} assets a page. */
  public GitHubSettings withPageSize(int size) {
    return new GitHubSettings(api, owner, repository, tag, token, size, timeout);
  }

  /** The same settings with another token (or none). */
  public GitHubSettings withToken(Optional<String> newToken) {
    return new GitHubSettings(api, owner, repository, tag, newToken, pageSize, timeout);
  }

  /** The same settings for another tag. */
  public GitHubSettings withTag(String newTag) {
    return new GitHubSettings(api, owner, repository, newTag, token, pageSize, timeout);
  }

  /** Whether the newest release is read. */
  public boolean latest() {
    return tag.equals(LATEST);
  }

  @Override
  public String toString() {
    return "GitHubSettings[api=" + api + ", repository=" + owner + "/" + repository + ", tag=" + tag + ", token="
        + (token.isPresent() ? "<set>" : "<none>") + ", pageSize=" + pageSize + ", timeout=" + timeout + "]";
  }
}
