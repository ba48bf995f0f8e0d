package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Turns a GCS JSON API error answer ({@code {"error": {"code", "message", "errors": [{"reason"}]}}}) into a message
 * a user can act on. Messages name the endpoint's origin, bucket, prefix or object and who asked (anonymous, a
 * service account), never a token; GCS's own message is kept, shortened, since it says which permission is missing.
 */
final class GcsErrors {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int MAX_DETAIL = 300;

  private GcsErrors() {
  }

  /**
   * @param object the object name the request was for, or null for a listing
   * @param generation the generation the request pinned, or null
   */
  static FetchException of(int status, String body, GcsSettings settings, String object, String generation) {
    String where = "GCS bucket '" + settings.bucket() + "' at " + HttpSender.origin(settings.endpoint());
    JsonNode error = parse(body).path("error");
    String reason = error.path("errors").path(0).path("reason").asText("");
    String message = shorten(error.path("message").asText(""));
    String detail = (reason.isEmpty() ? "" : reason + ", ") + "HTTP " + status + (message.isEmpty() ? "" : ": "
        + message);
    String what = object == null ? "prefix '" + settings.namePrefix() + "'" : "object '" + object + "'";
    if (status == 401) {
      settings.auth().invalidate();
      return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " rejected the credentials of "
          + settings.auth().describe() + " (" + detail + ")");
    }
    if (status == 403) {
      return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " denied " + settings.auth().describe()
          + " access to " + what + " (check the credentials and the bucket's IAM policy) (" + detail + ")");
    }
    if (status == 404 && object == null) {
      return new FetchException(FetchException.Kind.NOT_FOUND, where + " does not exist (" + detail + ")");
    }
    if (status == 404 && generation != null) {
      return new FetchException(FetchException.Kind.NOT_FOUND, what + " generation " + generation + " not found in "
          + where + ": it was replaced or deleted after the listing (" + detail + ")");
    }
    if (status == 404) {
      return new FetchException(FetchException.Kind.NOT_FOUND, what + " not found in " + where + " (" + detail + ")");
    }
    if (status == 412) {
      return new FetchException(FetchException.Kind.NOT_FOUND, what + " changed after the listing (generation "
          + generation + " no longer current) in " + where + " (" + detail + ")");
    }
    if (status >= 500 || status == 429) {
      return new FetchException(FetchException.Kind.SERVER_ERROR, where + " failed (" + detail + ")");
    }
    return new FetchException(FetchException.Kind.INVALID, where + " answered " + detail);
  }

  /** A server's message on one line, cut to a few hundred characters. */
  static String shorten(String text) {
    String line = text.replaceAll("\\s+", " ").strip();
    return line.length() <= MAX_DETAIL ? line : line.substring(0, MAX_DETAIL) + "…";
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
