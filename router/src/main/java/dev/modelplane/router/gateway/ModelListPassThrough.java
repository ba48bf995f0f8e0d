package dev.modelplane.router.gateway;

import dev.modelplane.router.datalayer.UpstreamBodies;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.request.Destination;
import io.vertx.core.Future;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.RequestOptions;

/**
 * A {@code GET /v1/models} passed to one endpoint: it needs no scheduling, and the endpoint's answer is read whole (up
 * to {@link UpstreamBodies#MAX_MODELS_BYTES}, so a runaway one is refused rather than buffered) and passed on with its
 * status and content type.
 */
final class ModelListPassThrough {
  /**
   * What the client was answered.
   *
   * @param status the endpoint's status
   * @param bytes the body's size
   */
  record Answer(int status, long bytes) {
  }

  private ModelListPassThrough() {
  }

  /** Asks {@code target}, of {@code pool}, for {@code uri} and answers {@code resp} with what it says. */
  static Future<Answer> relay(GatewayContext ctx, EndpointPool pool, Destination target, String uri,
      HttpServerResponse resp) {
    return ctx.clientFor(pool).request(new RequestOptions().setMethod(HttpMethod.GET).setHost(target.host())
            .setPort(target.port()).setURI(uri).setIdleTimeout(ctx.limits().upstreamResponseTimeout().toMillis()))
        .compose(HttpClientRequest::send)
        .compose(ur -> UpstreamBodies.read(ur, UpstreamBodies.MAX_MODELS_BYTES).map(b -> {
          resp.setStatusCode(ur.statusCode());
          String ct = ur.getHeader(HttpHeaders.CONTENT_TYPE);
          if (ct != null) {
            resp.putHeader(HttpHeaders.CONTENT_TYPE, ct);
          }
          resp.putHeader(ForwardedHeaders.SERVED, target.hostPort());
          resp.end(b);
          return new Answer(ur.statusCode(), b.length());
        }));
  }
}
