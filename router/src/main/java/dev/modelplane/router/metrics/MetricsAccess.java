package dev.modelplane.router.metrics;

import dev.modelplane.common.metrics.MetricsRegistry;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may read {@code /metrics}: anyone ({@link #open()}), or — GIE's {@code --metrics-endpoint-auth} — callers whose
 * bearer token the Kubernetes API authenticates (TokenReview) and authorizes for {@code get} on the non-resource URL
 * {@code /metrics} (SubjectAccessReview), as a Prometheus with a ServiceAccount token and a ClusterRole granting that
 * URL scrapes. No token or a token the API does not accept → 401; accepted but not authorized → 403; the API
 * unreachable, or more than a few unknown tokens under review at once → 503. Verdicts are cached per token (by its
 * SHA-256) for a minute, so scrapes cost no API calls; a flood of unknown tokens never evicts an allowed one.
 */
public final class MetricsAccess {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsAccess.class);
  private static final int MAX_CACHED = 1024;
  private static final int MAX_CONCURRENT_REVIEWS = 4;

  /** The outcome of a check. */
  public enum Verdict { ALLOWED, UNAUTHENTICATED, FORBIDDEN, UNAVAILABLE }

  private record Cached(Verdict verdict, long expiresAt) {
  }

  private final KubernetesClient client;
  private final long ttlNanos;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();
  private final Semaphore reviews = new Semaphore(MAX_CONCURRENT_REVIEWS);

  private MetricsAccess(KubernetesClient client, Duration ttl) {
    this.client = client;
    this.ttlNanos = ttl.toNanos();
  }

  /** No authentication: every caller reads the metrics. */
  public static MetricsAccess open() {
    return new MetricsAccess(null, Duration.ZERO);
  }

  /** Tokens checked by the Kubernetes API behind {@code client}, verdicts kept for {@code ttl}. */
  public static MetricsAccess kubernetes(KubernetesClient client, Duration ttl) {
    return new MetricsAccess(client, ttl);
  }

  /** Whether callers need a token. */
  public boolean authenticates() {
    return client != null;
  }

  /** Answers {@code req} with {@code body} when the caller may read it, else 401/403/503; never blocks the loop. */
  public void serve(Vertx vertx, HttpServerRequest req, Supplier<String> body) {
    authorize(vertx, req, () -> req.response().putHeader("content-type", MetricsRegistry.CONTENT_TYPE)
        .end(body.get()));
  }

  /**
   * Runs {@code allowed} (which answers {@code req}) when the caller may read the metrics, else answers 401/403/503
   * itself; never blocks the loop. Other read-only views of the same data (the live page) use it too.
   */
  public void authorize(Vertx vertx, HttpServerRequest req, Runnable allowed) {
    if (client == null) {
      allowed.run();
      return;
    }
    String authorization = req.getHeader("authorization");
    vertx.executeBlocking(() -> check(authorization), false).onComplete(done -> {
      Verdict verdict = done.succeeded() ? done.result() : Verdict.UNAVAILABLE;
      switch (verdict) {
        case ALLOWED -> allowed.run();
        case UNAUTHENTICATED -> req.response().setStatusCode(401).putHeader("www-authenticate", "Bearer")
            .end("Unauthorized: a bearer token the Kubernetes API accepts is needed\n");
        case FORBIDDEN -> req.response().setStatusCode(403)
            .end("Forbidden: the token's identity may not get /metrics\n");
        case UNAVAILABLE -> req.response().setStatusCode(503)
            .end("the Kubernetes API could not check the token; try again\n");
        default -> throw new IllegalStateException(verdict.name());
      }
    });
  }

  /** The verdict for an {@code Authorization} header value (null when absent); calls the API on a cache miss. */
  public Verdict check(String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)
        || authorization.substring(7).isBlank()) {
      return Verdict.UNAUTHENTICATED;
    }
    String token = authorization.substring(7).strip();
    String key = sha256(token);
    long now = System.nanoTime();
    Cached cached = cache.get(key);
    if (cached != null && now - cached.expiresAt() < 0) {
      return cached.verdict();
    }
    // Unknown tokens cost API calls: a few reviews at a time, the rest answered 503 until one finishes.
    if (!reviews.tryAcquire()) {
      return Verdict.UNAVAILABLE;
    }
    Verdict verdict;
    try {
      verdict = review(token);
    } catch (KubernetesClientException e) {
      LOG.atWarn().addKeyValue("error", e.getMessage()).log("metrics token could not be reviewed");
      return Verdict.UNAVAILABLE;
    } finally {
      reviews.release();
    }
    if (cache.size() >= MAX_CACHED) {
      // Make room without forgetting the scrapers: expired verdicts first, then refusals; allowed ones stay.
      cache.values().removeIf(c -> now - c.expiresAt() >= 0);
      if (cache.size() >= MAX_CACHED) {
        cache.values().removeIf(c -> c.verdict() != Verdict.ALLOWED);
      }
    }
    if (cache.size() < MAX_CACHED) {
      cache.put(key, new Cached(verdict, now + ttlNanos));
    }
    return verdict;
  }

  private Verdict review(String token) {
    TokenReview review = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder()
        .withNewSpec().withToken(token).endSpec().build());
    if (review.getStatus() == null || !Boolean.TRUE.equals(review.getStatus().getAuthenticated())) {
      return Verdict.UNAUTHENTICATED;
    }
    UserInfo user = review.getStatus().getUser();
    SubjectAccessReview access = client.authorization().v1().subjectAccessReview().create(
        new SubjectAccessReviewBuilder().withNewSpec().withUser(user.getUsername()).withUid(user.getUid())
            .withGroups(user.getGroups()).withExtra(user.getExtra())
            .withNewNonResourceAttributes().withPath("/metrics").withVerb("get").endNonResourceAttributes()
            .endSpec().build());
    boolean allowed = access.getStatus() != null && Boolean.TRUE.equals(access.getStatus().getAllowed());
    LOG.atDebug().addKeyValue("user", user.getUsername()).addKeyValue("allowed", allowed).log("metrics token reviewed");
    return allowed ? Verdict.ALLOWED : Verdict.FORBIDDEN;
  }

  private static String sha256(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
          .digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
