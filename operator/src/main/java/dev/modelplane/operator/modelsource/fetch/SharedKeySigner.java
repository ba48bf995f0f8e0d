package dev.modelplane.operator.modelsource.fetch;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Azure Storage "Shared Key" authorization for the Blob service, version 2009-09-19 and later: the
 * {@code Authorization: SharedKey <account>:<signature>} header, where the signature is the base64 HMAC-SHA256, keyed
 * with the base64-decoded account key, of the verb, twelve standard headers, the {@code x-ms-*} headers and the
 * canonicalized resource ({@code /<account>} followed by the request's encoded path, then its query parameters).
 * For an emulator's path-style address ({@code http://127.0.0.1:10000/devstoreaccount1/container}) the path holds the
 * account again, so the account appears twice in the resource, as Azure documents. {@link #toString()} never shows
 * the key.
 */
public final class SharedKeySigner {
  /** The headers whose values (not names) make up the fixed part of the string to sign, in order. */
  private static final List<String> STANDARD_HEADERS = List.of("content-encoding", "content-language",
      "content-length", "content-md5", "content-type", "date", "if-modified-since", "if-match", "if-none-match",
      "if-unmodified-since", "range");
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US).withZone(ZoneOffset.UTC);

  private final String account;
  private final byte[] key;

  /**
   * @param account the storage account name
   * @param base64Key the account key as Azure shows it (base64)
   * @throws IllegalArgumentException when the key is not base64 (the message does not show it)
   */
  public SharedKeySigner(String account, String base64Key) {
    this.account = Objects.requireNonNull(account, "account");
    this.key = decodeKey(Objects.requireNonNull(base64Key, "base64Key"));
  }

  /** Decodes an account key; the message of a bad one says what is wrong without showing it. */
  static byte[] decodeKey(String base64Key) {
    byte[] bytes;
    try {
      bytes = Base64.getDecoder().decode(base64Key.strip());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("the Azure account key is not base64 (it is shown as base64 in the portal "
          + "and in connection strings)");
    }
    if (bytes.length == 0) {
      throw new IllegalArgumentException("the Azure account key is empty");
    }
    return bytes;
  }

  /** The {@code x-ms-date} value for an instant (an HTTP date, always with a two-digit day). */
  public static String httpDate(Instant instant) {
    return HTTP_DATE.format(instant);
  }

  /**
   * The {@code Authorization} header value of a request.
   *
   * @param method the HTTP method
   * @param uri the request URI with its path and query exactly as sent (percent-encoded)
   * @param headers every header sent with the request that the signature covers (names in any case); a
   *     {@code Content-Length} of 0 counts as absent, as from version 2015-02-21
   */
  public String authorization(String method, URI uri, Map<String, String> headers) {
    return "SharedKey " + account + ":" + sign(stringToSign(method, uri, headers));
  }

  /** The string to sign; package-visible for tests. */
  String stringToSign(String method, URI uri, Map<String, String> headers) {
    Map<String, String> lower = new TreeMap<>();
    headers.forEach((name, value) -> lower.put(name.toLowerCase(Locale.ROOT), value == null ? "" : value));
    StringBuilder out = new StringBuilder(method.toUpperCase(Locale.ROOT)).append('\n');
    for (String name : STANDARD_HEADERS) {
      String value = lower.getOrDefault(name, "");
      if (name.equals("content-length") && value.strip().equals("0")) {
        value = "";
      }
      out.append(value).append('\n');
    }
    lower.forEach((name, value) -> {
      if (name.startsWith("x-ms-")) {
        out.append(name).append(':').append(value.strip().replaceAll("\\s+", " ")).append('\n');
      }
    });
    String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
    out.append('/').append(account).append(path);
    canonicalQuery(uri.getRawQuery()).forEach((name, values) ->
        out.append('\n').append(name).append(':').append(String.join(",", values)));
    return out.toString();
  }

  /** Query parameters by lower-case decoded name, sorted, each with its decoded values sorted. */
  private static Map<String, List<String>> canonicalQuery(String rawQuery) {
    Map<String, List<String>> params = new TreeMap<>();
    if (rawQuery == null || rawQuery.isEmpty()) {
      return params;
    }
    for (String pair : rawQuery.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String name = decode(eq < 0 ? pair : pair.substring(0, eq)).toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : decode(pair.substring(eq + 1));
      params.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
    }
    params.values().forEach(values -> values.sort(null));
    return params;
  }

  private static String decode(String value) {
    return URLDecoder.decode(value, StandardCharsets.UTF_8);
  }

  private String sign(String stringToSign) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("the JDK has no HmacSHA256", e);
    }
  }

  @Override
  public String toString() {
    return "SharedKeySigner[account=" + account + ", key=<set>]";
  }
}
