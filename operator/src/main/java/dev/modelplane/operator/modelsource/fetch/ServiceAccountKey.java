package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.Objects;
import java.util.Optional;

/**
 * The parts of a Google service account key file (the JSON {@code gcloud iam service-accounts keys create} writes)
 * that obtaining access tokens needs. {@link #toString()} never shows the private key.
 *
 * @param clientEmail the account, {@code client_email}
 * @param privateKey the RSA key from {@code private_key} (PKCS#8 PEM)
 * @param privateKeyId {@code private_key_id}, sent as the JWT's {@code kid} when present
 * @param tokenUri where tokens are obtained, {@code token_uri}; https, or http to a loopback address only
 */
public record ServiceAccountKey(String clientEmail, PrivateKey privateKey, Optional<String> privateKeyId,
    URI tokenUri) {
  /** Google's token endpoint, used when the key file names none. */
  public static final URI DEFAULT_TOKEN_URI = URI.create("https://oauth2.googleapis.com/token");
  private static final ObjectMapper JSON = new ObjectMapper();

  public ServiceAccountKey {
    Objects.requireNonNull(clientEmail, "clientEmail");
    Objects.requireNonNull(privateKey, "privateKey");
    Objects.requireNonNull(privateKeyId, "privateKeyId");
    Objects.requireNonNull(tokenUri, "tokenUri");
    boolean https = "https".equals(tokenUri.getScheme());
    boolean loopbackHttp = "http".equals(tokenUri.getScheme()) && loopback(tokenUri.getHost());
    if (!https && !loopbackHttp || tokenUri.getHost() == null || tokenUri.getRawUserInfo() != null) {
      throw new IllegalArgumentException("token_uri must be an https URL (plain http only to a loopback address)");
    }
  }

  /**
   * Reads a key file's JSON.
   *
   * @throws IllegalArgumentException naming what is missing or malformed, never a value other than the account
   */
  public static ServiceAccountKey parse(String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON (line " + e.getLocation().getLineNr() + ")");
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    String type = root.path("type").asText("service_account");
    if (!type.equals("service_account")) {
      throw new IllegalArgumentException("type is '" + type + "', not 'service_account' (user and external account "
          + "credentials are not supported; use a service account key or an access_token)");
    }
    String email = text(root, "client_email");
    PrivateKey key = privateKey(text(root, "private_key"));
    Optional<String> keyId = Optional.of(root.path("private_key_id").asText("")).filter(s -> !s.isBlank());
    String tokenUri = root.path("token_uri").asText("");
    URI uri;
    try {
      uri = tokenUri.isBlank() ? DEFAULT_TOKEN_URI : URI.create(tokenUri.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("token_uri is not a URL");
    }
    return new ServiceAccountKey(email, key, keyId, uri);
  }

  private static String text(JsonNode root, String field) {
    String value = root.path(field).asText("");
    if (value.isBlank()) {
      throw new IllegalArgumentException("the field " + field + " is missing");
    }
    return value;
  }

  private static PrivateKey privateKey(String pem) {
    if (pem.contains("BEGIN RSA PRIVATE KEY")) {
      throw new IllegalArgumentException("private_key is a PKCS#1 RSA key; service account keys are PKCS#8 "
          + "(-----BEGIN PRIVATE KEY-----)");
    }
    String body = pem.replace("-----BEGIN PRIVATE KEY-----", "").replace("-----END PRIVATE KEY-----", "");
    try {
      byte[] der = Base64.getMimeDecoder().decode(body.replace("\\n", "\n"));
      return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(der));
    } catch (IllegalArgumentException | GeneralSecurityException e) {
      throw new IllegalArgumentException("private_key is not a PKCS#8 RSA private key in PEM");
    }
  }

  private static boolean loopback(String host) {
    return host != null && (host.equals("localhost") || host.startsWith("127.") || host.equals("[::1]"));
  }

  @Override
  public String toString() {
    return "ServiceAccountKey[clientEmail=" + clientEmail + ", privateKey=<set>, privateKeyId="
        + privateKeyId.map(k -> "<set>").orElse("<none>") + ", tokenUri=" + tokenUri + "]";
  }
}
