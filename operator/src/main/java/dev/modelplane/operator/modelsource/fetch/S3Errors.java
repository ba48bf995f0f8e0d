package dev.modelplane.operator.modelsource.fetch;

/**
 * Turns an S3 error answer into a message a user can act on. S3 names the cause in the XML body's {@code Code}
 * ({@code SignatureDoesNotMatch}, {@code InvalidAccessKeyId}, {@code NoSuchBucket}, {@code NoSuchKey}, …). Messages
 * name the endpoint's origin, bucket, prefix and key, the access key id at most, never the secret.
 */
final class S3Errors {
  private S3Errors() {
  }

  static FetchException of(int status, S3Xml.Error error, S3Settings settings, String path) {
    String where = "S3 bucket '" + settings.bucket() + "' at " + HttpSender.origin(settings.endpoint());
    String code = error.code();
    String detail = code.isEmpty() ? "HTTP " + status : code + ", HTTP " + status;
    switch (code) {
      case "NoSuchBucket":
        return new FetchException(FetchException.Kind.NOT_FOUND, where + " does not exist (" + detail + ")");
      case "NoSuchKey":
        return new FetchException(FetchException.Kind.NOT_FOUND, "object '" + settings.keyPrefix() + path
            + "' not found in " + where + " (" + detail + ")");
      case "SignatureDoesNotMatch":
        return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " rejected the request signature: "
            + "the secret key does not match access key '" + settings.accessKey() + "' (" + detail + ")");
      case "InvalidAccessKeyId", "XAdminUserNotFound": // the second is versitygw's name for the same thing
        return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " does not know access key '"
            + settings.accessKey() + "' (" + detail + ")");
      default:
        break;
    }
    if (status == 401 || status == 403) {
      String who = settings.signed() ? "access key '" + settings.accessKey() + "'" : "anonymous requests";
      return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " denied access to " + who
          + " (check the credentials and the bucket policy) (" + detail + ")");
    }
    if (status == 404) {
      return new FetchException(FetchException.Kind.NOT_FOUND, (path == null ? "prefix '" + settings.keyPrefix()
          + "'" : "object '" + settings.keyPrefix() + path + "'") + " not found in " + where + " (" + detail + ")");
    }
    if (status >= 500 || status == 429 || "SlowDown".equals(code)) {
      return new FetchException(FetchException.Kind.SERVER_ERROR, where + " failed (" + detail + ")");
    }
    if (status == 301 || "PermanentRedirect".equals(code) || "AuthorizationHeaderMalformed".equals(code)) {
      return new FetchException(FetchException.Kind.INVALID, where + " is in another region than '"
          + settings.region() + "' or needs another endpoint (" + detail + ")");
    }
    return new FetchException(FetchException.Kind.INVALID, where + " answered " + detail
        + (error.message().isEmpty() ? "" : ": " + error.message()));
  }
}
