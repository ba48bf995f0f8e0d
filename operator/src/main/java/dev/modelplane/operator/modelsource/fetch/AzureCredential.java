package dev.modelplane.operator.modelsource.fetch;

import java.util.Objects;

/**
 * How requests to Azure Blob Storage are authorized: not at all (a container with public read access), with the
 * account key (Shared Key signing), or with a shared access signature appended to every request's query.
 * {@link #toString()} never shows a key or a token.
 */
public sealed interface AzureCredential {
  /** Requests without authorization: only containers with public (blob or container) access answer them. */
  record Anonymous() implements AzureCredential {
    @Override
    public String toString() {
      return "anonymous";
    }
  }

  /**
   * Shared Key signing with the storage account's key.
   *
   * @param key the account key, base64 as Azure shows it
   */
  record SharedKey(String key) implements AzureCredential {
    public SharedKey {
      Objects.requireNonNull(key, "key");
      SharedKeySigner.decodeKey(key); // fails early, without showing it
    }

    @Override
    public String toString() {
      return "account key";
    }
  }

  /**
   * A shared access signature (account, service or user delegation SAS): the query string Azure issues, with or
   * without its leading {@code ?}.
   *
   * @param token the query string; kept without the leading {@code ?}
   */
  record Sas(String token) implements AzureCredential {
    public Sas {
      Objects.requireNonNull(token, "token");
      token = token.strip().replaceFirst("^\\?", "");
      if (!("&" + token).contains("&sig=")) {
        throw new IllegalArgumentException("the Azure SAS token has no sig= parameter: it must be the query string "
            + "of a shared access signature (sv=...&sig=...)");
      }
      if (token.contains("#") || token.contains(" ")) {
        throw new IllegalArgumentException("the Azure SAS token must be a URL query string (no spaces or '#')");
      }
    }

    @Override
    public String toString() {
      return "SAS token";
    }
  }
}
