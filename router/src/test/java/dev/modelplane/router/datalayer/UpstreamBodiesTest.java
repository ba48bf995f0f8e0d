package dev.modelplane.router.datalayer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.PoolKey;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Model servers' answers are read up to a cap: a page over it fails the scrape instead of filling the heap. */
class UpstreamBodiesTest {
  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void stop() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
  }

  private static String page(int waiting, int padLines) {
    StringBuilder b = new StringBuilder("vllm:num_requests_waiting{model_name=\"m\"} ").append(waiting).append('\n')
        .append("vllm:num_requests_running{model_name=\"m\"} 0\nvllm:kv_cache_usage_perc{model_name=\"m\"} 0.1\n");
    for (int i = 0; i < padLines; i++) {
      b.append("padding_metric{i=\"").append(i).append("\"} 1\n");
    }
    return b.toString();
  }

  @Test
  void aMetricsPageOverTheCapFailsTheScrapeAndAPageUnderItIsReadAgain() throws Exception {
    AtomicReference<String> body = new AtomicReference<>(page(7, 0));
    boolean[] chunked = {false};
    HttpServer server = vertx.createHttpServer().requestHandler(req -> {
      if (chunked[0]) {
        req.response().setChunked(true).end(body.get()); // no Content-Length: the cap applies while reading
      } else {
        req.response().end(body.get());
      }
    });
    server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    EndpointPool pool = new EndpointPool(PoolKey.STATIC);
    pool.setEndpoints(List.of(Endpoint.ofStatic("127.0.0.1", server.actualPort())));
    EndpointState endpoint = pool.endpoints().get(0);
    long cap = 64 * 1024;
    MetricsScraper scraper = new MetricsScraper(vertx, MetricsExtractor.defaults(),
        new MetricsScraper.Settings(Duration.ofMillis(20), Duration.ofSeconds(1), "/metrics", 0, cap),
        System::nanoTime, null);
    try {
      scraper.added(pool, endpoint);
      await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.metrics().waitingQueueSize() == 7);
      body.set(page(9, 5000)); // about 150 KiB, declared
      await().atMost(Duration.ofSeconds(10)).until(() -> scraper.oversizedScrapes() >= 2);
      chunked[0] = true;
      long before = scraper.oversizedScrapes();
      await().atMost(Duration.ofSeconds(10)).until(() -> scraper.oversizedScrapes() >= before + 2);
      assertThat(endpoint.metrics().waitingQueueSize()).as("the oversized page was never read").isEqualTo(7);
      body.set(page(3, 10));
      await().atMost(Duration.ofSeconds(10)).until(() -> endpoint.metrics().waitingQueueSize() == 3);
    } finally {
      scraper.close();
    }
  }

  @Test
  void readStopsAtTheCapWhetherTheLengthIsDeclaredOrNot() throws Exception {
    String big = "x".repeat(2 * 1024 * 1024);
    HttpServer server = vertx.createHttpServer().requestHandler(req -> {
      switch (req.path()) {
        case "/declared" -> req.response().end(big);
        case "/chunked" -> req.response().setChunked(true).end(big);
        default -> req.response().end("{\"data\":[]}");
      }
    });
    server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    io.vertx.core.http.HttpClient client = vertx.createHttpClient();
    for (String path : List.of("/declared", "/chunked", "/small")) {
      var result = client.request(io.vertx.core.http.HttpMethod.GET, server.actualPort(), "127.0.0.1", path)
          .compose(io.vertx.core.http.HttpClientRequest::send)
          .compose(r -> UpstreamBodies.read(r, UpstreamBodies.MAX_MODELS_BYTES))
          .toCompletionStage().toCompletableFuture();
      if (path.equals("/small")) {
        assertThat(result.get(10, TimeUnit.SECONDS).toString()).isEqualTo("{\"data\":[]}");
      } else {
        assertThat(result).failsWithin(Duration.ofSeconds(10)).withThrowableOfType(
            java.util.concurrent.ExecutionException.class).withCauseInstanceOf(UpstreamBodies.TooLarge.class)
            .withMessageContaining("response body exceeds the limit of 1048576 bytes");
      }
    }
  }
}
