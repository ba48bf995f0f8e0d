package dev.modelplane.operator.modelsource.fetch;

/**
 * Turns a Blob service error answer into a message a user can act on. Azure names the cause in the
 * {@code x-ms-error-code} header and the XML body's {@code Code} ({@code AuthenticationFailed},
 * {@code ContainerNotFound}, {@code BlobNotFound}, {@code AuthorizationPermissionMismatch}, …). Messages name the
 * endpoint's origin, account, container and blob and how the request was authorized, never a key or a SAS token.
 */
final class AzureErrors {
  private AzureErrors() {
  }

  static FetchException of(int status, String code, String message, AzureBlobSettings settings, String path) {
    String where = "Azure container '" + settings.container() + "' of account '" + settings.account() + "' at "
        + HttpSender.origin(settings.endpoint());
    String detail = code.isEmpty() ? "HTTP " + status : code + ", HTTP " + status;
    AzureCredential credential = settings.credential();
    switch (code) {
      case "ContainerNotFound":
        return new FetchException(FetchException.Kind.NOT_FOUND, where + " does not exist (" + detail + ")");
      case "BlobNotFound":
        return new FetchException(FetchException.Kind.NOT_FOUND, "blob '" + settings.keyPrefix() + path
            + "' not found in " + where + " (" + detail + ")");
      case "AuthenticationFailed", "AuthorizationFailure", "InvalidAuthenticationInfo":
        return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " rejected " + rejected(credential,
            settings.account()) + " (" + detail + ")");
      case "AuthorizationPermissionMismatch", "AuthorizationResourceTypeMismatch", "AuthorizationServiceMismatch",
          "AuthorizationProtocolMismatch", "AuthorizationSourceIPMismatch":
        return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " refused the request: the "
            + credential + " does not allow reading and listing blobs here (" + detail + ")");
      case "NoAuthenticationInformation", "PublicAccessNotPermitted":
        return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " does not allow anonymous reads; "
            + "name a Secret with an account key, SAS token or connection string in spec.storage.key (" + detail
            + ")");
      default:
        break;
    }
    if (status == 401 || status == 403) {
      return new FetchException(FetchException.Kind.ACCESS_DENIED, where + " denied access to requests with "
          + (credential instanceof AzureCredential.Anonymous ? "no credentials" : "the " + credential) + " ("
          + detail + ")");
    }
    if (status == 404) {
      // Azure answers a read of a private container without credentials as if it did not exist.
      String anonymous = credential instanceof AzureCredential.Anonymous
          ? ", or it does not allow anonymous reads (no Secret is named by spec.storage.key)" : "";
      return new FetchException(FetchException.Kind.NOT_FOUND, (path == null ? where + " was not found"
          : "blob '" + settings.keyPrefix() + path + "' not found in " + where) + anonymous + " (" + detail + ")");
    }
    if (status >= 500 || status == 429 || "ServerBusy".equals(code) || "OperationTimedOut".equals(code)) {
      return new FetchException(FetchException.Kind.SERVER_ERROR, where + " failed (" + detail + ")");
    }
    return new FetchException(FetchException.Kind.INVALID, where + " answered " + detail
        + (message.isEmpty() ? "" : ": " + message));
  }

  private static String rejected(AzureCredential credential, String account) {
    return switch (credential) {
      case AzureCredential.SharedKey k -> "the Shared Key signature: the account key does not match account '"
          + account + "' (a wrong or rotated key)";
      case AzureCredential.Sas s -> "the SAS token: it is expired, not yet valid, revoked, or signed for another "
          + "account or resource";
      case AzureCredential.Anonymous a -> "a request without credentials: the container does not allow anonymous "
          + "reads; name a Secret with an account key, SAS token or connection string in spec.storage.key";
    };
  }
}
