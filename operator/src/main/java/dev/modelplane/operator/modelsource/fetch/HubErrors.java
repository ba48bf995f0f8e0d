package dev.modelplane.operator.modelsource.fetch;

import java.net.http.HttpHeaders;

/**
 * Turns a Hub error status into a message a user can act on. The Hub names the cause in an {@code X-Error-Code}
 * header ({@code RepoNotFound}, {@code RevisionNotFound}, {@code EntryNotFound}, {@code GatedRepo}); it answers 401
 * rather than 404 for a repository the caller may not see, because a private repository must not reveal that it
 * exists.
 */
final class HubErrors {
  /** Which request failed. */
  enum Call { REVISION, TREE, FILE }

  private HubErrors() {
  }

  static FetchException of(Call call, int status, HttpHeaders headers, HubSettings settings, String path) {
    String code = headers.firstValue("X-Error-Code").orElse("");
    String repo = "Hugging Face repository '" + settings.repoId() + "'";
    String revision = "revision '" + settings.revision() + "'";
    String where = " at " + HttpSender.origin(settings.endpoint());
    String tokenState = settings.token().isPresent() ? "the token is not allowed to read it"
        : "no token was given";
    if ("GatedRepo".equals(code)) {
      return new FetchException(FetchException.Kind.ACCESS_DENIED, repo + " is gated: token missing or not allowed ("
          + tokenState + "; accept the model's conditions on its page with the token's account) (HTTP " + status
          + ")");
    }
    if (status == 401 || status == 403) {
      String cause = "RepoNotFound".equals(code) ? " was not found or is private" : " refused access";
      return new FetchException(FetchException.Kind.ACCESS_DENIED, repo + cause + where
          + ": token missing or not allowed (" + tokenState + ") (HTTP " + status + ")");
    }
    if (status == 404) {
      String message = switch (code) {
        case "RepoNotFound" -> repo + " not found" + where;
        case "RevisionNotFound" -> revision + " not found in " + repo + where;
        case "EntryNotFound" -> "file '" + path + "' not found in " + repo + " at " + revision + where;
        default -> call == Call.FILE
            ? "file '" + path + "' not found in " + repo + " at " + revision + where
            : repo + " or its " + revision + " not found" + where;
      };
      return new FetchException(FetchException.Kind.NOT_FOUND, message + " (HTTP 404)");
    }
    if (status >= 500 || status == 429) {
      return new FetchException(FetchException.Kind.SERVER_ERROR, "Hugging Face endpoint"
          + where.substring(" at".length()) + " failed with HTTP " + status + " while " + doing(call, path)
          + " of " + repo + " (" + revision + ")");
    }
    return new FetchException(FetchException.Kind.INVALID, "Hugging Face endpoint" + where.substring(" at".length())
        + " answered HTTP " + status + " while " + doing(call, path) + " of " + repo + " (" + revision + ")");
  }

  private static String doing(Call call, String path) {
    return switch (call) {
      case REVISION -> "resolving the revision";
      case TREE -> "listing the files";
      case FILE -> "downloading '" + path + "'";
    };
  }
}
