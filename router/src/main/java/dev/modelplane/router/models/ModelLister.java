package dev.modelplane.router.models;

import dev.modelplane.api.gie.v1.AppProtocol;
import dev.modelplane.router.datalayer.UpstreamBodies;
import dev.modelplane.router.pool.EndpointListener;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks every endpoint which models it serves ({@code GET /v1/models}): at once when it joins, again every
 * {@code interval}, and every {@code retry} until its first answer. The last good answer stands while a server does not
 * answer (a server loading a model answers 503 for a while); an endpoint that leaves takes its models with it. A
 * pool of {@code kubernetes.io/h2c} servers is asked in HTTP/2 with prior knowledge.
 */
public final class ModelLister implements EndpointListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ModelLister.class);

  /**
   * How often to ask.
   *
   * @param interval between two answers
   * @param retry between attempts while an endpoint has never answered
   * @param timeout for one answer
   */
  public record Settings(Duration interval, Duration retry, Duration timeout) {
    public static final Settings DEFAULT = new Settings(Duration.ofSeconds(5), Duration.ofMillis(500),
        Duration.ofSeconds(2));
  }

  private final Vertx vertx;
  private final HttpClient client;
  private final HttpClient h2cClient;
  private final Settings settings;
  private final Map<EndpointState, List<ServedModel>> served = new ConcurrentHashMap<>();
  private final Map<EndpointState, Boolean> active = new ConcurrentHashMap<>();
  private volatile boolean closed;

  public ModelLister(Vertx vertx, Settings settings) {
    this.vertx = vertx;
    this.settings = settings;
    HttpClientOptions options = new HttpClientOptions().setKeepAlive(true)
        .setConnectTimeout((int) Math.max(100, settings.timeout().toMillis())).setIdleTimeout(30);
    this.client = vertx.createHttpClient(options, new PoolOptions().setHttp1MaxSize(1));
    this.h2cClient = vertx.createHttpClient(new HttpClientOptions(options).setProtocolVersion(HttpVersion.HTTP_2)
        .setHttp2ClearTextUpgrade(false), new PoolOptions().setHttp2MaxSize(1));
  }

  @Override
  public void added(EndpointPool pool, EndpointState endpoint) {
    if (!closed) {
      active.put(endpoint, Boolean.TRUE);
      vertx.runOnContext(v -> ask(pool, endpoint));
    }
  }

  @Override
  public void removed(EndpointPool pool, EndpointState endpoint) {
    active.remove(endpoint);
    served.remove(endpoint);
  }

  @Override
  public void replaced(EndpointPool pool, EndpointState old, EndpointState replacement) {
    List<ServedModel> known = served.remove(old);
    active.remove(old);
    if (known != null) {
      served.put(replacement, known);
    }
    added(pool, replacement);
  }

  /** The models {@code endpoint} last said it serves; empty before its first answer. */
  public List<ServedModel> servedBy(EndpointState endpoint) {
    return served.getOrDefault(endpoint, List.of());
  }

  /** Whether {@code endpoint} has answered at least once. */
  public boolean answered(EndpointState endpoint) {
    return served.containsKey(endpoint);
  }

  private void ask(EndpointPool pool, EndpointState endpoint) {
    if (closed || !active.containsKey(endpoint)) {
      return;
    }
    (pool.appProtocol() == AppProtocol.H2C ? h2cClient : client).request(new RequestOptions().setMethod(HttpMethod.GET).setHost(endpoint.endpoint().address())
            .setPort(endpoint.endpoint().port()).setURI("/v1/models").setTimeout(settings.timeout().toMillis()))
        .compose(req -> req.send())
        .compose(resp -> resp.statusCode() == 200 ? UpstreamBodies.read(resp, UpstreamBodies.MAX_MODELS_BYTES)
            : UpstreamBodies.read(resp, UpstreamBodies.MAX_MODELS_BYTES)
                .transform(ar -> Future.failedFuture("status " + resp.statusCode())))
        .map(body -> ServedModel.parseList(body.getBytes()))
        .onComplete(ar -> {
          if (ar.succeeded() && active.containsKey(endpoint)) {
            served.put(endpoint, ar.result());
          } else if (ar.failed()) {
            LOG.atDebug().addKeyValue("endpoint", endpoint).addKeyValue("error", ar.cause().getMessage())
                .log("model list failed");
          }
          if (!closed && active.containsKey(endpoint)) {
            Duration next = served.containsKey(endpoint) ? settings.interval() : settings.retry();
            vertx.setTimer(Math.max(1, next.toMillis()), t -> ask(pool, endpoint));
          }
        });
  }

  @Override
  public void close() {
    closed = true;
    active.clear();
    client.close();
    h2cClient.close();
  }
}
