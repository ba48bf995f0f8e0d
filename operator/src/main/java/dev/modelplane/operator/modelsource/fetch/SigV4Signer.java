package dev.modelplane.operator.modelsource.fetch;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for requests sent in the {@code Authorization} header. For S3 ({@code service = "s3"})
 * the path is encoded once and {@code x-amz-content-sha256} is signed, as S3 requires; other services get the
 * generic rules (path segments encoded twice). {@link #toString()} never shows the secret.
 */
public final class SigV4Signer {
  /** SHA-256 of an empty payload, the payload hash of every GET and HEAD. */
  public static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

  private static final DateTimeFormatter AMZ_DATE =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
  private static final HexFormat HEX = HexFormat.of();

  private final String accessKey;
  private final String secretKey;
  private final String sessionToken;
  private final String region;
  private final String service;

  /**
   * @param sessionToken temporary credentials' token, or null
   */
  public SigV4Signer(String accessKey, String secretKey, String sessionToken, String region, String service) {
    this.accessKey = Objects.requireNonNull(accessKey, "accessKey");
    this.secretKey = Objects.requireNonNull(secretKey, "secretKey");
    this.sessionToken = sessionToken == null || sessionToken.isBlank() ? null : sessionToken;
    this.region = Objects.requireNonNull(region, "region");
    this.service = Objects.requireNonNull(service, "service");
  }

  /** What to sign: the parts of an HTTP request exactly as they go on the wire, query and path not yet encoded. */
  public record Request(String method, String host, String path, List<Map.Entry<String, String>> query,
      Map<String, String> headers, String payloadSha256) {
    public Request {
      query = List.copyOf(query);
      headers = Map.copyOf(headers);
    }
  }

  /**
   * The headers to add to the request: {@code x-amz-date}, {@code x-amz-content-sha256} (S3),
   * {@code x-amz-security-token} (with a session token) and {@code Authorization}. The {@code host} header is signed
   * but not returned: HTTP clients set it themselves.
   */
  public Map<String, String> sign(Request request, Instant now) {
    Map<String, String> added = new LinkedHashMap<>();
    added.put("x-amz-date", AMZ_DATE.format(now));
    if (isS3()) {
      added.put("x-amz-content-sha256", request.payloadSha256());
    }
    if (sessionToken != null) {
      added.put("x-amz-security-token", sessionToken);
    }
    Map<String, String> all = new TreeMap<>();
    request.headers().forEach((k, v) -> all.put(k.toLowerCase(Locale.ROOT), canonicalValue(v)));
    added.forEach((k, v) -> all.put(k, canonicalValue(v)));
    all.put("host", request.host());
    String signedHeaders = String.join(";", all.keySet());
    String canonical = canonicalRequest(request, all, signedHeaders);
    String date = added.get("x-amz-date").substring(0, 8);
    String scope = date + "/" + region + "/" + service + "/aws4_request";
    String stringToSign = "AWS4-HMAC-SHA256\n" + added.get("x-amz-date") + "\n" + scope + "\n"
        + sha256Hex(canonical.getBytes(StandardCharsets.UTF_8));
    byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), date);
    key = hmac(key, region);
    key = hmac(key, service);
    key = hmac(key, "aws4_request");
    String signature = HEX.formatHex(hmac(key, stringToSign));
    added.put("Authorization", "AWS4-HMAC-SHA256 Credential=" + accessKey + "/" + scope + ", SignedHeaders="
        + signedHeaders + ", Signature=" + signature);
    return added;
  }

  /** The canonical request of step 1 of the algorithm (visible for tests). */
  String canonicalRequest(Request request, Map<String, String> sortedHeaders, String signedHeaders) {
    StringBuilder headers = new StringBuilder();
    sortedHeaders.forEach((k, v) -> headers.append(k).append(':').append(v).append('\n'));
    return request.method() + "\n" + canonicalPath(request.path()) + "\n" + canonicalQuery(request.query()) + "\n"
        + headers + "\n" + signedHeaders + "\n" + request.payloadSha256();
  }

  /** The path as it goes on the wire and into the signature: each segment percent-encoded. */
  public String canonicalPath(String path) {
    String once = encodePath(path.isEmpty() ? "/" : path);
    return isS3() ? once : encodePath(once);
  }

  /** Query parameters encoded and sorted by name, then value. */
  public static String canonicalQuery(List<Map.Entry<String, String>> query) {
    List<String> pairs = new ArrayList<>();
    for (Map.Entry<String, String> e : query) {
      pairs.add(uriEncode(e.getKey(), true) + "=" + uriEncode(e.getValue() == null ? "" : e.getValue(), true));
    }
    pairs.sort(null);
    return String.join("&", pairs);
  }

  /** Percent-encodes every byte but the unreserved characters (and {@code /} unless {@code encodeSlash}). */
  public static String uriEncode(String value, boolean encodeSlash) {
    StringBuilder out = new StringBuilder();
    for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.'
          || c == '_' || c == '~' || c == '/' && !encodeSlash) {
        out.append(c);
      } else {
        out.append('%').append(HEX.withUpperCase().toHexDigits((byte) c));
      }
    }
    return out.toString();
  }

  /** Lowercase hex SHA-256 of some bytes. */
  public static String sha256Hex(byte[] bytes) {
    try {
      return HEX.formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no SHA-256", e);
    }
  }

  private boolean isS3() {
    return "s3".equals(service);
  }

  private static String encodePath(String path) {
    return uriEncode(path, false);
  }

  private static String canonicalValue(String value) {
    return value.strip().replaceAll("\\s+", " ");
  }

  private static byte[] hmac(byte[] key, String data) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HmacSHA256", e);
    }
  }

  @Override
  public String toString() {
    return "SigV4Signer[accessKey=" + accessKey + ", region=" + region + ", service=" + service + ", secret=<set>]";
  }
}
