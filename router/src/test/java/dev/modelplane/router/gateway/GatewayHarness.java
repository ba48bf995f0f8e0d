package dev.modelplane.router.gateway;

import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.request.RequestLimits;
import dev.modelplane.router.testing.FakeModelServer;
import io.vertx.core.Vertx;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** What the gateway tests share: fake model servers on loopback, a router in front of them, a client. */
abstract class GatewayHarness {
  protected final Vertx upstreams = Vertx.vertx();
  protected final List<FakeModelServer> servers = new ArrayList<>();
  protected final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  protected Router router;

  @AfterEach
  void tearDown() throws Exception {
    if (router != null) {
      router.close();
    }
    for (FakeModelServer s : servers) {
      s.close();
    }
    upstreams.close().toCompletionStage().toCompletableFuture().get();
  }

  protected FakeModelServer server(String name) throws Exception {
    FakeModelServer s = new FakeModelServer(upstreams, name).start();
    servers.add(s);
    return s;
  }

  protected Router router(String endpoints, String config, long maxBody) throws Exception {
    return router(endpoints, config, maxBody, MetricsScraper.Settings.DEFAULT);
  }

  protected Router router(String endpoints, String config, long maxBody, MetricsScraper.Settings scrape)
      throws Exception {
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withMaxBodyBytes(maxBody)
        .withAccessLog(false);
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, endpoints, List.of(), null, config,
        scrape, Duration.ofSeconds(2), null, false, false)).start();
    return router;
  }

  /** A router over {@code endpoints} with these timeouts and limits (defaults otherwise). */
  protected Router router(String endpoints, GatewayOptions.Limits limits) throws Exception {
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false)
        .withLimits(limits);
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, endpoints, List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start();
    return router;
  }

  /** A router over {@code endpoints} with these request limits, on both front ends. */
  protected Router router(String endpoints, RequestLimits limits) throws Exception {
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false)
        .withMaxBodyBytes(limits.maxBodyBytes());
    router = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, endpoints, List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false).withRequestLimits(limits))
        .start();
    return router;
  }

  protected URI uri(String path) {
    return URI.create("http://127.0.0.1:" + router.gatewayPort() + path);
  }

  protected HttpResponse<String> post(String path, String body, String... headers) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(20))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body));
    for (int i = 0; i + 1 < headers.length; i += 2) {
      b.header(headers[i], headers[i + 1]);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  protected static String chat(String content, boolean stream) {
    return "{\"model\":\"m\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\""
        + content + "\"}]}";
  }
}
