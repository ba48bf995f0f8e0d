package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.time.Instant;
import java.util.OptionalLong;

/**
 * Turns a GitHub REST API error answer into a message a user can act on. A 403 or 429 with
 * {@code x-ratelimit-remaining: 0} (or a {@code retry-after}) is the rate limit, which passes: a retryable
 * {@link FetchException.Kind#SERVER_ERROR} naming when it resets. GitHub answers 404 for a private repository the
 * token cannot see, so the message says so. Messages name the API's origin, repository, tag or asset, never the token.
 */
final class GitHubErrors {
  private static final ObjectMapper JSON = new ObjectMapper();

  private GitHubErrors() {
  }

  /**
   * @param what what was asked for, e.g. {@code release 'v1' of org/repo} or {@code asset 'x' of …}
   */
  static FetchException of(HttpResponse<InputStream> response, String body, GitHubSettings settings, String what) {
    int status = response.statusCode();
    String where = HttpSender.origin(response.uri());
    String message = GcsErrors.shorten(parse(body).path("message").asText(""));
    String detail = "HTTP " + status + (message.isEmpty() ? "" : ": " + message);
    String who = settings.token().isPresent() ? "the token" : "anonymous requests";
    OptionalLong remaining = response.headers().firstValueAsLong("x-ratelimit-remaining");
    boolean limited = (status == 403 || status == 429) && (remaining.isPresent() && remaining.getAsLong() == 0
        || response.headers().firstValue("retry-after").isPresent());
    if (limited || status == 429) {
      String reset = response.headers().firstValueAsLong("x-ratelimit-reset").stream()
          .mapToObj(s -> "; it resets at " + Instant.ofEpochSecond(s)).findFirst()
          .or(() -> response.headers().firstValue("retry-after").map(s -> "; retry after " + s + " s")).orElse("");
      return new FetchException(FetchException.Kind.SERVER_ERROR, where + " rate-limited " + who + " reading " + what
          + reset + (settings.token().isPresent() ? "" : " (a token in the Secret raises the limit)") + " ("
          + detail + ")");
    }
    if (status == 401) {
      return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " rejected the token reading " + what
          + " (" + detail + ")");
    }
    if (status == 403) {
      return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " denied " + who + " access to " + what
          + " (" + detail + ")");
    }
    if (status == 404) {
      return new FetchException(FetchException.Kind.NOT_FOUND, what + " not found at " + where
          + (settings.token().isPresent() ? "" : " (a private repository needs a token)") + " (" + detail + ")");
    }
    if (status >= 500) {
      return new FetchException(FetchException.Kind.SERVER_ERROR, where + " failed reading " + what + " (" + detail
          + ")");
    }
    return new FetchException(FetchException.Kind.INVALID, where + " answered " + detail + " reading " + what);
  }

  private static JsonNode parse(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }
}
