package dev.modelplane.operator.modelsource.fetch;

import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a GET and follows up to {@code maxHops} redirects itself, so that it can refuse non-HTTP targets and
 * redirects from https to plain http, and send the {@code Authorization} header only to the origin the token was
 * issued for (the Hub sends large files to a CDN through a signed URL, which must not receive the user's token).
 * Locations are logged by origin only: their queries are signatures.
 */
final class RedirectFollower {
  private static final Logger LOG = LoggerFactory.getLogger(RedirectFollower.class);
  private static final Set<Integer> REDIRECTS = Set.of(301, 302, 303, 307, 308);

  private final HttpSender sender;
  private final int maxHops;

  RedirectFollower(HttpSender sender, int maxHops) {
    this.sender = sender;
    this.maxHops = maxHops;
  }

  /**
   * GETs {@code uri} with {@code headers}; {@code authorization} (may be null) goes only to requests for
   * {@code authOrigin} ({@code scheme://host[:port]}, as {@link HttpSender#origin} writes it), whichever URL the
   * chain started at. Returns the first non-redirect response.
   */
  HttpResponse<InputStream> get(URI uri, Map<String, String> headers, String authorization, String authOrigin,
      java.time.Duration timeout) throws FetchException {
    String firstOrigin = HttpSender.origin(uri);
    URI current = uri;
    for (int hop = 0; ; hop++) {
      HttpRequest.Builder builder = HttpRequest.newBuilder(current).timeout(timeout).GET();
      headers.forEach(builder::header);
      boolean tokenOrigin = HttpSender.origin(current).equals(authOrigin);
      if (authorization != null && tokenOrigin) {
        builder.header("Authorization", authorization);
      }
      HttpResponse<InputStream> response = sender.send(builder.build());
      if (!REDIRECTS.contains(response.statusCode())) {
        return response;
      }
      HttpSender.discard(response);
      String location = response.headers().firstValue("Location").orElseThrow(() -> new FetchException(
          FetchException.Kind.INVALID, HttpSender.origin(response.uri()) + " answered HTTP " + response.statusCode()
              + " without a Location header"));
      if (hop + 1 > maxHops) {
        throw new FetchException(FetchException.Kind.INVALID, "more than " + maxHops + " redirects starting at "
            + firstOrigin);
      }
      URI next;
      try {
        next = current.resolve(location);
      } catch (IllegalArgumentException e) {
        throw new FetchException(FetchException.Kind.INVALID, HttpSender.origin(current)
            + " redirected to a malformed location", e);
      }
      String scheme = next.getScheme() == null ? "" : next.getScheme().toLowerCase(java.util.Locale.ROOT);
      if (!scheme.equals("http") && !scheme.equals("https") || next.getHost() == null) {
        throw new FetchException(FetchException.Kind.INVALID, HttpSender.origin(current)
            + " redirected to a non-HTTP location (scheme '" + scheme + "'); refused");
      }
      if (downgrade(current, next)) {
        throw new FetchException(FetchException.Kind.INVALID, HttpSender.origin(current)
            + " redirected from https to plain http (" + HttpSender.origin(next) + "); refused");
      }
      LOG.debug("fetch.redirect from={} to={} status={} hop={}", HttpSender.origin(current), HttpSender.origin(next),
          response.statusCode(), hop + 1);
      current = next;
    }
  }

  /** Whether going from {@code from} to {@code to} leaves https for plain http. */
  static boolean downgrade(URI from, URI to) {
    return "https".equalsIgnoreCase(from.getScheme()) && !"https".equalsIgnoreCase(to.getScheme());
  }
}
