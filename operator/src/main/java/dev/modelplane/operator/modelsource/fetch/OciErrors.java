package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * Turns an OCI Object Storage error answer into a message a user can act on. OCI names the cause in the JSON body's
 * {@code code} ({@code NotAuthenticated}, {@code BucketNotFound}, {@code ObjectNotFound}, {@code NamespaceNotFound},
 * {@code TooManyRequests}, …) and says more in {@code message}. Messages name the endpoint's origin, namespace,
 * bucket, prefix and object, never a key id's token or a signature.
 */
final class OciErrors {
  private static final ObjectMapper JSON = new ObjectMapper();

  /** An error body: {@code code} and {@code message}, empty when the body had none. */
  record Error(String code, String message) {
    static final Error NONE = new Error("", "");
  }

  private OciErrors() {
  }

  /** Reads {@code {"code": ..., "message": ...}}; anything else gives empty fields. */
  static Error parse(String body) {
    if (body == null || body.isBlank()) {
      return Error.NONE;
    }
    try {
      JsonNode node = JSON.readTree(body);
      if (node == null || !node.isObject()) {
        return Error.NONE;
      }
      return new Error(node.path("code").asText(""), node.path("message").asText(""));
    } catch (IOException e) {
      return Error.NONE;
    }
  }

  static FetchException of(int status, Error error, OciSettings settings, String path) {
    String where = "OCI bucket '" + settings.bucket() + "' in namespace '" + settings.namespace() + "' at "
        + HttpSender.origin(settings.endpoint());
    String code = error.code();
    String detail = code.isEmpty() ? "HTTP " + status : code + ", HTTP " + status;
    String object = path == null ? null : settings.objectPrefix() + path;
    switch (code) {
      case "BucketNotFound", "NamespaceNotFound":
        // OCI answers this also to a caller who may not see the bucket: say both.
        return new FetchException(FetchException.Kind.NOT_FOUND, where + " does not exist or the credentials may "
            + "not read it (" + detail + ")");
      case "ObjectNotFound":
        return new FetchException(FetchException.Kind.NOT_FOUND, "object '" + object + "' not found in " + where
            + " (" + detail + ")");
      case "NotAuthenticated":
        return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " did not accept the request "
            + "signature: check the tenancy, user, fingerprint and private key (or that the session token has not "
            + "expired) and the clock (" + detail + ")");
      default:
        break;
    }
    if (status == 401 || status == 403) {
      return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " denied access (check the credentials "
          + "and the IAM policies of the bucket) (" + detail + ")");
    }
    if (status == 404) {
      return new FetchException(FetchException.Kind.NOT_FOUND, (object == null ? where : "object '" + object
          + "' not found in " + where) + " (" + detail + ")");
    }
    if (status >= 500 || status == 429) {
      return new FetchException(FetchException.Kind.SERVER_ERROR, where + " failed (" + detail + ")");
    }
    return new FetchException(FetchException.Kind.INVALID, where + " answered " + detail
        + (error.message().isEmpty() ? "" : ": " + error.message()));
  }
}
