package dev.modelplane.testsupport;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.PublicKey;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks an OCI request signature as the service does: the {@code Authorization: Signature ...} header's
 * {@code version="1"}, {@code algorithm="rsa-sha256"}, a {@code keyId} the server knows, a {@code headers} list that
 * covers {@code date} (or {@code x-date}), {@code (request-target)} and {@code host} (plus {@code content-length},
 * {@code content-type}, {@code x-content-sha256} for PUT and POST, the hash matching the body), a date within five
 * minutes of the server's clock, and the RSA-SHA256 signature over the signing string rebuilt from the request.
 */
public final class OciSignatureVerifier {
  /** The largest difference between the request's date and the server's clock OCI accepts. */
  public static final Duration MAX_SKEW = Duration.ofMinutes(5);
  private static final Pattern PARAM = Pattern.compile("(\\w+)=\"([^\"]*)\"");
  private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");

  private final Function<String, PublicKey> keys;

  /** @param keys the public key of a key id, or null when the server does not know it */
  public OciSignatureVerifier(Function<String, PublicKey> keys) {
    this.keys = keys;
  }

  /**
   * Why the request is not authenticated, or null when it is.
   *
   * @param method the HTTP method
   * @param target the raw request target: path and {@code ?query} exactly as received
   * @param headers the request headers by lower-case name
   * @param body the body
   * @param now the server's clock
   */
  public String problem(String method, String target, Map<String, String> headers, byte[] body, Instant now) {
    String authorization = headers.get("authorization");
    if (authorization == null || !authorization.startsWith("Signature ")) {
      return "The required information to complete authentication was not provided (no Signature Authorization)";
    }
    Map<String, String> params = new LinkedHashMap<>();
    Matcher m = PARAM.matcher(authorization);
    while (m.find()) {
      params.put(m.group(1), m.group(2));
    }
    if (!"1".equals(params.get("version")) || !"rsa-sha256".equals(params.get("algorithm"))) {
      return "Unsupported signature version or algorithm";
    }
    String keyId = params.getOrDefault("keyId", "");
    PublicKey key = keyId.isEmpty() ? null : keys.apply(keyId);
    if (key == null) {
      return "The key id is not known";
    }
    List<String> signed = List.of(params.getOrDefault("headers", "date").split(" "));
    List<String> required = new ArrayList<>(List.of(headers.containsKey("date") ? "date" : "x-date",
        "(request-target)", "host"));
    if (BODY_METHODS.contains(method)) {
      required.addAll(List.of("content-length", "content-type", "x-content-sha256"));
    }
    if (!signed.containsAll(required)) {
      return "The signature must cover the headers " + String.join(" ", required);
    }
    String date = headers.getOrDefault("x-date", headers.get("date"));
    try {
      Instant sent = ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
      if (Duration.between(sent, now).abs().compareTo(MAX_SKEW) > 0) {
        return "The request date " + date + " is more than " + MAX_SKEW.toMinutes() + " minutes from the server's";
      }
    } catch (DateTimeParseException | NullPointerException e) {
      return "The date header is missing or malformed";
    }
    if (BODY_METHODS.contains(method)) {
      if (!sha256(body).equals(headers.get("x-content-sha256"))
          || !Integer.toString(body.length).equals(headers.get("content-length"))) {
        return "The x-content-sha256 or content-length header does not match the body";
      }
    }
    List<String> lines = new ArrayList<>();
    for (String name : signed) {
      String value = name.equals("(request-target)") ? method.toLowerCase(Locale.ROOT) + " " + target
          : headers.get(name);
      if (value == null) {
        return "The signed header " + name + " is missing";
      }
      lines.add(name + ": " + value);
    }
    try {
      Signature rsa = Signature.getInstance("SHA256withRSA");
      rsa.initVerify(key);
      rsa.update(String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
      if (!rsa.verify(Base64.getDecoder().decode(params.getOrDefault("signature", "")))) {
        return "The signature does not match";
      }
    } catch (GeneralSecurityException | IllegalArgumentException e) {
      return "The signature cannot be checked: " + e.getClass().getSimpleName();
    }
    return null;
  }

  private static String sha256(byte[] body) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256").digest(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
