package dev.modelplane.router.ui;

import dev.modelplane.router.metrics.MetricsAccess;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The live page on the metrics port: {@code GET /ui} (one self-contained HTML file: inline CSS and script, nothing
 * fetched from elsewhere) and {@code GET /ui/state} (the JSON it polls every second). Read-only: any other method is
 * answered 405. Readers pass the same access check as {@code /metrics} ({@link MetricsAccess}): the page shows what the
 * metrics show, so it is exactly as open or as closed. The page's Content-Security-Policy lets only its own inline
 * script (by hash) run and lets it connect only to this origin.
 */
public final class LiveViewEndpoints {
  /** The page's path. */
  public static final String PAGE = "/ui";
  /** The state's path. */
  public static final String STATE = "/ui/state";
  private static final String RESOURCE = "live.html";

  private final LiveView view;
  private final MetricsAccess access;
  private final Vertx vertx;
  private final String html;
  private final String policy;

  public LiveViewEndpoints(LiveView view, MetricsAccess access, Vertx vertx) {
    this.view = view;
    this.access = access;
    this.vertx = vertx;
    this.html = page();
    this.policy = "default-src 'none'; script-src '" + scriptHash(html) + "'; style-src 'unsafe-inline'; "
        + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  }

  /** Whether {@code path} is one of the live view's. */
  public static boolean owns(String path) {
    return PAGE.equals(path) || (PAGE + "/").equals(path) || STATE.equals(path);
  }

  /** Answers the request when its path is the live view's; {@code false} (nothing sent) otherwise. */
  public boolean handle(HttpServerRequest req) {
    String path = req.path();
    if (!owns(path)) {
      return false;
    }
    if (req.method() != HttpMethod.GET) {
      req.response().setStatusCode(405).putHeader("allow", "GET").putHeader("content-type", "text/plain")
          .end("method not allowed: the live view is read-only (GET)\n");
      return true;
    }
    access.authorize(vertx, req, () -> {
      HttpServerResponse r = common(req.response());
      if (STATE.equals(path)) {
        r.putHeader("content-type", "application/json").end(view.stateJson());
      } else {
        r.putHeader("content-type", "text/html; charset=utf-8").putHeader("content-security-policy", policy)
            .end(html);
      }
    });
    return true;
  }

  private static HttpServerResponse common(HttpServerResponse r) {
    return r.putHeader("cache-control", "no-store").putHeader("x-content-type-options", "nosniff")
        .putHeader("referrer-policy", "no-referrer").putHeader("x-frame-options", "DENY");
  }

  /** The Content-Security-Policy the page is served with. */
  String policy() {
    return policy;
  }

  static String page() {
    try (InputStream in = LiveViewEndpoints.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + RESOURCE + " is missing from the router's jar");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code sha256-…} of the page's one inline script, as CSP names it. */
  static String scriptHash(String html) {
    int open = html.indexOf("<script>");
    int close = html.indexOf("</script>", open);
    if (open < 0 || close < 0 || html.indexOf("<script", close) >= 0) {
      throw new IllegalStateException("the live page must hold exactly one inline <script>");
    }
    String script = html.substring(open + "<script>".length(), close);
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest(script.getBytes(StandardCharsets.UTF_8));
      return "sha256-" + Base64.getEncoder().encodeToString(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
