package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Signature;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access tokens for a service account, obtained with Google's OAuth 2.0 JWT bearer grant (RFC 7523): a JWT signed
 * RS256 with the account's key ({@code iss} the account, {@code scope} read-only storage, {@code aud} the token URI,
 * valid one hour) is exchanged at the key's {@code token_uri} for a bearer token, which is kept until a minute before
 * it expires. Neither the key, the JWT nor the token ever appears in a message or log.
 */
public final class ServiceAccountTokens implements GcsAuth {
  /** The scope requested: reading objects and listings, nothing else. */
  public static final String SCOPE = "https://www.googleapis.com/auth/devstorage.read_only";
  static final String GRANT_TYPE = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  static final Duration JWT_LIFETIME = Duration.ofHours(1);
  private static final Duration EARLY_RENEWAL = Duration.ofSeconds(60);
  private static final Logger LOG = LoggerFactory.getLogger(ServiceAccountTokens.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ServiceAccountKey key;
  private final HttpSender sender;
  private final Clock clock;
  private final Duration timeout;
  private String token;
  private Instant renewAt = Instant.MIN;

  public ServiceAccountTokens(ServiceAccountKey key, Duration timeout) {
    this(key, new HttpSender(timeout), Clock.systemUTC(), timeout);
  }

  ServiceAccountTokens(ServiceAccountKey key, HttpSender sender, Clock clock, Duration timeout) {
    this.key = key;
    this.sender = sender;
    this.clock = clock;
    this.timeout = timeout;
  }

  @Override
  public synchronized Optional<String> bearer() throws FetchException {
    Instant now = clock.instant();
    if (token == null || !now.isBefore(renewAt)) {
      exchange(now);
    }
    return Optional.of(token);
  }

  @Override
  public synchronized void invalidate() {
    token = null;
  }

  @Override
  public String describe() {
    return "service account '" + key.clientEmail() + "'";
  }

  /** The signed JWT asserting the account at {@code now}: {@code header.claims.signature}, base64url. */
  String assertion(Instant now) {
    ObjectNode header = JSON.createObjectNode().put("alg", "RS256").put("typ", "JWT");
    key.privateKeyId().ifPresent(id -> header.put("kid", id));
    ObjectNode claims = JSON.createObjectNode().put("iss", key.clientEmail()).put("scope", SCOPE)
        .put("aud", key.tokenUri().toString()).put("iat", now.getEpochSecond())
        .put("exp", now.plus(JWT_LIFETIME).getEpochSecond());
    String signed = base64Url(header.toString().getBytes(StandardCharsets.UTF_8)) + "."
        + base64Url(claims.toString().getBytes(StandardCharsets.UTF_8));
    try {
      Signature rsa = Signature.getInstance("SHA256withRSA");
      rsa.initSign(key.privateKey());
      rsa.update(signed.getBytes(StandardCharsets.US_ASCII));
      return signed + "." + base64Url(rsa.sign());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with the key of " + describe(), e);
    }
  }

  private void exchange(Instant now) throws FetchException {
    String form = "grant_type=" + URLEncoder.encode(GRANT_TYPE, StandardCharsets.UTF_8) + "&assertion="
        + assertion(now);
    HttpRequest request = HttpRequest.newBuilder(key.tokenUri()).timeout(timeout)
        .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build();
    HttpResponse<InputStream> response = sender.send(request);
    String body = HttpSender.readSmall(response);
    String where = "the token endpoint " + HttpSender.origin(key.tokenUri());
    int status = response.statusCode();
    JsonNode json = parse(body);
    if (status != 200) {
      String detail = json.path("error").asText("") + (json.path("error_description").asText("").isEmpty() ? ""
          : ": " + GcsErrors.shorten(json.path("error_description").asText(""))) + " (HTTP " + status + ")";
      FetchException.Kind kind = status >= 500 || status == 429 ? FetchException.Kind.SERVER_ERROR
          : FetchException.Kind.ACCESS_DENIED;
      throw new FetchException(kind, where + " refused a token for " + describe() + ": " + detail.strip());
    }
    String accessToken = json.path("access_token").asText("");
    long expiresIn = json.path("expires_in").asLong(3600);
    if (accessToken.isBlank() || accessToken.chars().anyMatch(c -> c < 0x21 || c > 0x7e) || expiresIn <= 0) {
      throw new FetchException(FetchException.Kind.INVALID, where + " answered without a usable access_token and "
          + "expires_in for " + describe());
    }
    token = accessToken;
    Duration lifetime = Duration.ofSeconds(expiresIn);
    renewAt = now.plus(lifetime.compareTo(EARLY_RENEWAL.multipliedBy(2)) > 0 ? lifetime.minus(EARLY_RENEWAL)
        : lifetime.dividedBy(2));
    LOG.info("fetch.gcs.token account={} expiresInSeconds={}", key.clientEmail(), expiresIn);
  }

  private static JsonNode parse(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node == null ? JSON.createObjectNode() : node;
    } catch (IOException e) {
      return JSON.createObjectNode();
    }
  }

  private static String base64Url(byte[] bytes) {
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  @Override
  public String toString() {
    return "ServiceAccountTokens[" + key.clientEmail() + "]";
  }
}
