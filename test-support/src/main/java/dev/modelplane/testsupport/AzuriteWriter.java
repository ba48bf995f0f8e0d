package dev.modelplane.testsupport;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Sends {@link AzuriteServer}'s writes (containers, blobs, properties), signed by the test's Shared Key code. */
final class AzuriteWriter {
  private static final String API_VERSION = "2021-08-06";
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final DateTimeFormatter HTTP_DATE =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

  private final URI endpoint;
  private final AzuriteServer.Signer signer;

  AzuriteWriter(URI endpoint, AzuriteServer.Signer signer) {
    this.endpoint = endpoint;
    this.signer = signer;
  }

  /**
   * Sends a signed request to {@code path} (not yet encoded) under the endpoint.
   *
   * @throws IOException when the answer is not {@code expected}, with the answer
   */
  void send(String method, String path, String query, Map<String, String> extra, byte[] body, int expected)
      throws IOException {
    URI uri = URI.create(endpoint + encodePath(path) + (query.isEmpty() ? "" : "?" + query));
    Map<String, String> headers = new LinkedHashMap<>(extra);
    headers.put("x-ms-date", HTTP_DATE.format(ZonedDateTime.now(ZoneOffset.UTC)));
    headers.put("x-ms-version", API_VERSION);
    Map<String, String> signed = new LinkedHashMap<>(headers);
    signed.put("Content-Length", Integer.toString(body.length));
    headers.put("Authorization", signer.authorization(method, uri, signed));
    HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
        .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
    headers.forEach(request::header);
    try {
      HttpResponse<String> response = HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != expected) {
        throw new IOException(method + " " + path + " answered " + response.statusCode() + ": " + response.body());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  /** Percent-encodes a path, leaving RFC 3986 unreserved characters and {@code /}. */
  static String encodePath(String path) {
    StringBuilder out = new StringBuilder();
    for (byte b : path.getBytes(StandardCharsets.UTF_8)) {
      char c = (char) (b & 0xFF);
      if (c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || "-._~/".indexOf(c) >= 0) {
        out.append(c);
      } else {
        out.append('%').append(String.format(Locale.ROOT, "%02X", (int) c));
      }
    }
    return out.toString();
  }

  static String md5Base64(byte[] data) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("the JDK has no MD5", e);
    }
  }
}
