package dev.modelplane.router.datalayer;


import dev.modelplane.router.pool.EndpointListener;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes every endpoint's {@code /metrics} page on a fixed cadence (GIE's {@code --refresh-metrics-interval}, 50 ms by
 * default) and swaps in a new immutable snapshot. The next scrape of an endpoint is scheduled when the previous one
 * ends, so a slow server is never scraped twice at once. A failed scrape leaves the old snapshot to age into
 * staleness; the request path never waits on a scrape. A scrape whose connection is refused takes the endpoint out of
 * candidacy for {@link #REFUSED_COOLDOWN} (renewed by every refused scrape): a dead server is skipped a scrape
 * interval after it died, whichever front end routes — the ext_proc picker never sees the proxy's connect errors.
 */
public final class MetricsScraper implements EndpointListener, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsScraper.class);
  /** How long a refused scrape keeps an endpoint out of candidacy. */
  public static final Duration REFUSED_COOLDOWN = Duration.ofSeconds(2);

  /**
   * Where and how often to scrape.
   *
   * @param interval time between the end of one scrape and the start of the next
   * @param timeout per-scrape timeout
   * @param path metrics path, {@code /metrics}
   * @param portOverride scrape this port instead of the endpoint's (GIE's deprecated model-server-metrics-port), 0 off
   * @param maxBodyBytes a metrics page larger than this fails the scrape (the endpoint's metrics go stale)
   */
  public record Settings(Duration interval, Duration timeout, String path, int portOverride, long maxBodyBytes) {
    public static final Settings DEFAULT = new Settings(Duration.ofMillis(50), Duration.ofSeconds(1), "/metrics", 0);

    /** With the default page cap, {@link UpstreamBodies#MAX_METRICS_BYTES}. */
    public Settings(Duration interval, Duration timeout, String path, int portOverride) {
      this(interval, timeout, path, portOverride, UpstreamBodies.MAX_METRICS_BYTES);
    }
  }

  private final Vertx vertx;
  private final HttpClient client;
  private final MetricsExtractor extractor;
  private final Settings settings;
  private final LongSupplier nanoClock;
  private final Consumer<EndpointPool> onUpdate;
  private final Map<EndpointState, Boolean> active = new ConcurrentHashMap<>();
  private volatile boolean closed;
  private final java.util.concurrent.atomic.LongAdder oversized = new java.util.concurrent.atomic.LongAdder();
  private final java.util.Set<EndpointState> warnedOversized = ConcurrentHashMap.newKeySet();

  public MetricsScraper(Vertx vertx, MetricsExtractor extractor, Settings settings, LongSupplier nanoClock,
      Consumer<EndpointPool> onUpdate) {
    this.vertx = vertx;
    this.extractor = extractor;
    this.settings = settings;
    this.nanoClock = nanoClock;
    this.onUpdate = onUpdate == null ? p -> { } : onUpdate;
    this.client = vertx.createHttpClient(new HttpClientOptions()
        .setKeepAlive(true)
        .setConnectTimeout((int) Math.max(100, settings.timeout().toMillis()))
        .setIdleTimeout(30), new PoolOptions().setHttp1MaxSize(2));
  }

  @Override
  public void added(EndpointPool pool, EndpointState endpoint) {
    if (closed) {
      return;
    }
    active.put(endpoint, Boolean.TRUE);
    vertx.runOnContext(v -> scrape(pool, endpoint));
  }

  @Override
  public void removed(EndpointPool pool, EndpointState endpoint) {
    active.remove(endpoint);
    warnedOversized.remove(endpoint);
  }

  /** Scrapes failed because the page was over the cap. */
  public long oversizedScrapes() {
    return oversized.sum();
  }

  /** Endpoints currently scraped. */
  public int activeCount() {
    return active.size();
  }

  private void scrape(EndpointPool pool, EndpointState endpoint) {
    if (closed || !active.containsKey(endpoint)) {
      return;
    }
    int port = settings.portOverride() > 0 ? settings.portOverride() : endpoint.endpoint().port();
    RequestOptions options = new RequestOptions()
        .setMethod(HttpMethod.GET)
        .setHost(endpoint.endpoint().address())
        .setPort(port)
        .setURI(settings.path())
        .setTimeout(settings.timeout().toMillis());
    EngineMapping mapping = extractor.mappingFor(endpoint.endpoint().labels());
    client.request(options)
        .compose(req -> req.send())
        .compose(resp -> {
          if (resp.statusCode() != 200) {
            return UpstreamBodies.read(resp, settings.maxBodyBytes())
                .transform(ar -> io.vertx.core.Future.failedFuture("status " + resp.statusCode()));
          }
          return UpstreamBodies.read(resp, settings.maxBodyBytes());
        })
        .onComplete(ar -> {
          if (ar.succeeded()) {
            warnedOversized.remove(endpoint);
            MetricsSnapshot previous = endpoint.metrics();
            MetricsSnapshot next = extractor.extract(ar.result().toString(StandardCharsets.UTF_8), mapping, previous,
                nanoClock.getAsLong());
            if (next != previous) {
              endpoint.updateMetrics(next);
              onUpdate.accept(pool);
            }
          } else {
            if (refused(ar.cause())) {
              endpoint.markUnreachable(nanoClock.getAsLong() + REFUSED_COOLDOWN.toNanos());
            }
            if (ar.cause() instanceof UpstreamBodies.TooLarge) {
              oversized.increment();
              // Once until the next good scrape: the page stays too large scrape after scrape.
              if (warnedOversized.add(endpoint)) {
                LOG.atWarn().addKeyValue("endpoint", endpoint).addKeyValue("limit", settings.maxBodyBytes())
                    .log("metrics scrape failed: the metrics page is larger than the limit; endpoint metrics go "
                        + "stale");
              }
            } else {
              LOG.atDebug().addKeyValue("endpoint", endpoint).addKeyValue("error", ar.cause().getMessage())
                  .log("metrics scrape failed");
            }
          }
          if (!closed && active.containsKey(endpoint)) {
            vertx.setTimer(Math.max(1, settings.interval().toMillis()), t -> scrape(pool, endpoint));
          }
        });
  }

  private static boolean refused(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof java.net.ConnectException) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void close() {
    closed = true;
    active.clear();
    client.close();
  }
}
