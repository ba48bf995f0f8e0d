package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Signs requests to OCI services the way OCI defines it: an HTTP Signature (draft-cavage) {@code Authorization} header,
 * {@code rsa-sha256}, {@code version="1"}, over {@code date (request-target) host}, plus
 * {@code content-length content-type x-content-sha256} for POST, PUT and PATCH. The key id is
 * {@code <tenancy>/<user>/<fingerprint>} for an API key or {@code ST$<token>} for a session token.
 */
public final class OciSigner {
  /** The {@code Date} header's format, RFC 7231's IMF-fixdate (two-digit day, unlike RFC 1123 in the JDK). */
  public static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'",
      Locale.US).withZone(ZoneOffset.UTC);
  private static final List<String> GENERIC = List.of("date", "(request-target)", "host");
  private static final List<String> BODY = List.of("content-length", "content-type", "x-content-sha256");
  private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");

  private final String keyId;
  private final PrivateKey key;

  /**
   * @param keyId the key id the service looks the public key up by
   * @param key the RSA private key
   */
  public OciSigner(String keyId, PrivateKey key) {
    this.keyId = Objects.requireNonNull(keyId, "keyId");
    this.key = Objects.requireNonNull(key, "key");
    if (!"RSA".equals(key.getAlgorithm())) {
      throw new IllegalArgumentException("OCI signs with RSA keys, not " + key.getAlgorithm());
    }
  }

  /** The key id of an API key: {@code <tenancy>/<user>/<fingerprint>}. */
  public static String apiKeyId(String tenancy, String user, String fingerprint) {
    return tenancy + "/" + user + "/" + fingerprint;
  }

  /** The key id of a session (security) token: {@code ST$<token>}. */
  public static String sessionKeyId(String token) {
    return "ST$" + token;
  }

  /**
   * The headers to send with a request: {@code date} (unless {@code headers} has one), {@code authorization} and, for a
   * method with a body, {@code content-length} and {@code x-content-sha256}. A sender that sets
   * {@code Content-Length} itself (the JDK client does) must send the same value.
   *
   * @param method the HTTP method
   * @param uri the request URI exactly as sent (its raw path and query are signed as they are)
   * @param headers other headers of the request, by any case of name ({@code content-type} is signed with a body)
   * @param body the body, empty for none
   * @param now the signing time
   */
  public Map<String, String> sign(String method, URI uri, Map<String, String> headers, byte[] body, Instant now) {
    Map<String, String> lower = new LinkedHashMap<>();
    headers.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
    Map<String, String> added = new LinkedHashMap<>();
    if (!lower.containsKey("date")) {
      added.put("date", DATE.format(now));
    }
    List<String> signed = new ArrayList<>(GENERIC);
    if (BODY_METHODS.contains(method.toUpperCase(Locale.ROOT))) {
      added.put("content-length", Integer.toString(body.length));
      added.put("x-content-sha256", Base64.getEncoder().encodeToString(sha256(body)));
      signed.addAll(BODY);
    }
    lower.putAll(added);
    List<String> lines = new ArrayList<>();
    for (String name : signed) {
      String value = switch (name) {
        case "(request-target)" -> requestTarget(method, uri);
        case "host" -> uri.getRawAuthority();
        default -> lower.getOrDefault(name, "");
      };
      lines.add(name + ": " + value);
    }
    String signature = Base64.getEncoder().encodeToString(rsaSha256(String.join("\n", lines)));
    added.put("authorization", "Signature version=\"1\",headers=\"" + String.join(" ", signed) + "\",keyId=\""
        + keyId + "\",algorithm=\"rsa-sha256\",signature=\"" + signature + "\"");
    return added;
  }

  /** {@code <method in lower case> <raw path>[?<raw query>]}. */
  static String requestTarget(String method, URI uri) {
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    String query = uri.getRawQuery();
    return method.toLowerCase(Locale.ROOT) + " " + path + (query == null || query.isEmpty() ? "" : "?" + query);
  }

  private byte[] rsaSha256(String text) {
    try {
      Signature rsa = Signature.getInstance("SHA256withRSA");
      rsa.initSign(key);
      rsa.update(text.getBytes(StandardCharsets.UTF_8));
      return rsa.sign();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign with the OCI key: " + e.getMessage(), e);
    }
  }

  private static byte[] sha256(byte[] body) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(body);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  @Override
  public String toString() {
    return "OciSigner[keyId=" + (keyId.startsWith("ST$") ? "ST$<token>" : keyId) + "]";
  }
}
