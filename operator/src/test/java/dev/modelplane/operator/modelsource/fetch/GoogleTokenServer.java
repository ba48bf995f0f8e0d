package dev.modelplane.operator.modelsource.fetch;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.Signature;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A loopback OAuth 2.0 token endpoint for service account JWTs, checked as Google checks them: the grant type, an
 * RS256 signature by the account's public key, and the claims (issuer, read-only storage scope, audience = this
 * endpoint, one hour of validity). Answers {@code access_token}s {@code token-1}, {@code token-2}, … or, when
 * {@link #refuse} is set, {@code 400 invalid_grant} as Google does for an unknown or disabled key.
 */
final class GoogleTokenServer implements AutoCloseable {
  static final String EMAIL = "model-reader@project-1.iam.gserviceaccount.com";
  static final String KEY_ID = "0123456789abcdef";
  private static final ObjectMapper JSON = new ObjectMapper();

  final KeyPair keys;
  final List<JsonNode> claims = new CopyOnWriteArrayList<>();
  final List<String> problems = new CopyOnWriteArrayList<>();
  volatile boolean refuse;
  volatile long expiresIn = 3600;
  private final HttpServer server;

  GoogleTokenServer() throws IOException {
    try {
      KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
      generator.initialize(2048);
      keys = generator.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/token", this::token);
    server.start();
  }

  URI tokenUri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/token");
  }

  /** A service account key file for this endpoint, as Google's console writes it. */
  String keyFile() {
    String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
    return JSON.createObjectNode().put("type", "service_account").put("project_id", "project-1")
        .put("private_key_id", KEY_ID).put("private_key", pem).put("client_email", EMAIL)
        .put("client_id", "1234567890").put("auth_uri", "https://accounts.google.com/o/oauth2/auth")
        .put("token_uri", tokenUri().toString()).toString();
  }

  private void token(HttpExchange exchange) throws IOException {
    String form = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    String grant = null;
    String assertion = null;
    for (String pair : form.split("&")) {
      String[] kv = pair.split("=", 2);
      String value = URLDecoder.decode(kv.length > 1 ? kv[1] : "", StandardCharsets.UTF_8);
      if (kv[0].equals("grant_type")) {
        grant = value;
      } else if (kv[0].equals("assertion")) {
        assertion = value;
      }
    }
    String problem = check(exchange, grant, assertion);
    if (problem != null) {
      problems.add(problem);
    }
    if (refuse || problem != null) {
      answer(exchange, 400, "{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
      return;
    }
    answer(exchange, 200, "{\"access_token\":\"token-" + claims.size() + "\",\"expires_in\":" + expiresIn
        + ",\"token_type\":\"Bearer\"}");
  }

  private String check(HttpExchange exchange, String grant, String assertion) {
    if (!"application/x-www-form-urlencoded".equals(exchange.getRequestHeaders().getFirst("Content-Type"))) {
      return "content type " + exchange.getRequestHeaders().getFirst("Content-Type");
    }
    if (!ServiceAccountTokens.GRANT_TYPE.equals(grant) || assertion == null) {
      return "grant " + grant;
    }
    String[] parts = assertion.split("\\.");
    if (parts.length != 3) {
      return "not a JWT";
    }
    try {
      Signature rsa = Signature.getInstance("SHA256withRSA");
      rsa.initVerify(keys.getPublic());
      rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
      if (!rsa.verify(Base64.getUrlDecoder().decode(parts[2]))) {
        return "bad signature";
      }
      JsonNode header = JSON.readTree(Base64.getUrlDecoder().decode(parts[0]));
      JsonNode body = JSON.readTree(Base64.getUrlDecoder().decode(parts[1]));
      if (!header.path("alg").asText().equals("RS256") || !header.path("kid").asText().equals(KEY_ID)) {
        return "header " + header;
      }
      if (!body.path("iss").asText().equals(EMAIL) || !body.path("aud").asText().equals(tokenUri().toString())
          || !body.path("scope").asText().equals(ServiceAccountTokens.SCOPE)
          || body.path("exp").asLong() - body.path("iat").asLong() != 3600) {
        return "claims " + body;
      }
      claims.add(body);
      return null;
    } catch (Exception e) {
      return "unreadable JWT: " + e;
    }
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
