package dev.modelplane.router.gateway;

import dev.modelplane.router.request.Destination;
import dev.modelplane.router.request.ErrorCode;
import dev.modelplane.router.request.RouterException;
import dev.modelplane.router.request.RoutingDecision;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpMethod;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeoutException;

/**
 * Whether and where a request is tried again when an attempt fails before the client got any response byte. The
 * failed endpoint is left out of the next pick (one that refused the connection also out of every pick for the
 * unreachable cooldown), and the director's next destination is tried while attempts remain — or the same one on a
 * fresh connection when the upstream closed a reused keep-alive connection and nothing else is left. A request
 * other than a POST (a passed-through {@code DELETE}, {@code GET}, …) is tried again only when connecting failed:
 * once any byte of it may have reached a model server, sending it again could repeat what it did there.
 */
final class RetryPolicy {
  private final GatewayContext ctx;
  private final Set<String> failed = new HashSet<>();

  RetryPolicy(GatewayContext ctx) {
    this.ctx = ctx;
  }

  /**
   * The decision to try next after {@code decision}'s destination failed with {@code cause}, the last of
   * {@code attempts} so far; {@code null}: none.
   *
   * @param connectFailure the attempt failed before a connection was open, so nothing was sent
   * @param method the request's method
   */
  RoutingDecision next(RoutingDecision decision, Throwable cause, boolean connectFailure, int attempts,
      HttpMethod method) {
    Destination target = decision.destination();
    failed.add(target.hostPort());
    if (connectFailure && target.state() != null) {
      target.state().markUnreachable(ctx.nanoClock().getAsLong() + ctx.options().unreachableCooldown().toNanos());
    }
    if (attempts >= ctx.options().maxAttempts() || !connectFailure && method != HttpMethod.POST) {
      return null;
    }
    RoutingDecision next = ctx.director().retry(decision, failed);
    if (next == null && cause instanceof HttpClosedException) {
      // A pooled keep-alive connection the upstream closed just as it was reused (e.g. after it refused another
      // request with an error and closed): with no other endpoint left, try the same one on a fresh connection.
      next = decision;
    }
    if (next != null) {
      ctx.metrics().gatewayRetries.inc(connectFailure ? "connect"
          : cause instanceof TimeoutException ? "response_timeout" : "before_first_byte");
    }
    return next;
  }

  /** What the client is told when no attempt is left: 504 after a timeout, else 503. */
  static RouterException exhausted(Destination target, Throwable cause) {
    if (cause instanceof TimeoutException) {
      return new RouterException(ErrorCode.GATEWAY_TIMEOUT, "upstream " + target.hostPort() + " timed out: "
          + cause.getMessage());
    }
    return new RouterException(ErrorCode.SERVICE_UNAVAILABLE, "upstream " + target.hostPort() + " failed: "
        + cause.getMessage());
  }
}
