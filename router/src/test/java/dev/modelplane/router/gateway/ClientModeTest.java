package dev.modelplane.router.gateway;

import dev.modelplane.router.gateway.GatewayOptions;

import dev.modelplane.router.Router;
import dev.modelplane.router.RouterOptions;
import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.testing.FakeModelServer;
import io.grpc.ManagedChannel;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.vertx.core.Vertx;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The gateway delegating to an external EPP over ext_proc (here: another router process's ext_proc server). */
class ClientModeTest {
  private final Vertx upstreams = Vertx.vertx();
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private FakeModelServer a;
  private FakeModelServer b;
  private Router epp;

  @BeforeEach
  void start() throws Exception {
    a = new FakeModelServer(upstreams, "a").start();
    b = new FakeModelServer(upstreams, "b").start();
    closeables.add(a);
    closeables.add(b);
    epp = new Router(new RouterOptions("127.0.0.1", null, 0, 0, -1, endpoints(), List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), null, false, false)).start();
    closeables.add(epp);
  }

  @AfterEach
  void stop() throws Exception {
    for (int i = closeables.size() - 1; i >= 0; i--) {
      closeables.get(i).close();
    }
    upstreams.close().toCompletionStage().toCompletableFuture().get();
  }

  private String endpoints() {
    return a.hostPort() + "," + b.hostPort();
  }

  private Router gateway(String eppAddress, boolean failOpen) throws Exception {
    GatewayOptions gw = GatewayOptions.defaults().withPort(0).withEventLoops(1).withAccessLog(false);
    Router r = new Router(new RouterOptions("127.0.0.1", gw, -1, -1, -1, endpoints(), List.of(), null, null,
        MetricsScraper.Settings.DEFAULT, Duration.ofSeconds(2), eppAddress, failOpen, false)).start();
    closeables.add(r);
    return r;
  }

  private HttpResponse<String> post(Router r, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + r.gatewayPort() + "/v1/completions"))
        .timeout(Duration.ofSeconds(20)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static int deadPort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void aRequestWithoutABodyIsAskedWithItsMethodAndEndsItsStreamWithItsHeaders() throws Exception {
    Router gw = gateway("127.0.0.1:" + epp.extProcPort(), false);
    String base = "http://127.0.0.1:" + gw.gatewayPort();
    // A picker that took these for POSTs would read their empty bodies as chat requests and refuse them.
    HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
        .timeout(Duration.ofSeconds(20)).GET().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(get.statusCode()).as(get.body()).isEqualTo(200);
    HttpResponse<String> delete = http.send(HttpRequest.newBuilder(URI.create(base + "/v1/chat/completions"))
        .timeout(Duration.ofSeconds(20)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
    assertThat(delete.statusCode()).as(delete.body()).isEqualTo(200);
    List<String> methods = new ArrayList<>(a.methods());
    methods.addAll(b.methods());
    assertThat(methods).containsExactlyInAnyOrder("GET", "DELETE");
    assertThat(a.rawBodies().stream().mapToInt(io.vertx.core.buffer.Buffer::length).sum()
        + b.rawBodies().stream().mapToInt(io.vertx.core.buffer.Buffer::length).sum()).isZero();
  }

  @Test
  void delegatesPickingToTheExternalEpp() throws Exception {
    Router gw = gateway("127.0.0.1:" + epp.extProcPort(), false);
    for (int i = 0; i < 4; i++) {
      HttpResponse<String> r = post(gw, "{\"model\":\"m\",\"prompt\":\"hello " + i + "\"}");
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("x-gateway-destination-endpoint-served").orElseThrow())
          .isIn(a.hostPort(), b.hostPort());
    }
    assertThat(a.requests() + b.requests()).isEqualTo(4);
    assertThat(epp.metrics().scrape()).contains("inference_objective_request_total{model_name=\"m\"");
    // The gateway's own director records the same request metrics as in-process picking does.
    String own = gw.metrics().scrape();
    assertThat(own).containsPattern(
        "inference_objective_request_total\\{model_name=\"m\",priority=\"0\",target_model_name=\"m\"} 4");
    // A request stops counting as running when its exchange ends, which may be just after the client has the answer.
    await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(gw.metrics().scrape())
        .containsPattern("inference_objective_running_requests\\{model_name=\"m\"} 0"));
  }

  @Test
  void headerChangesFollowEnvoysDefaultRulesAndAPathChangeRewritesTheUpstreamUri() throws Exception {
    // A picker that, like the reference EPP, sets :path among its header changes, and tries changes Envoy refuses.
    io.grpc.Server picker = io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder
        .forAddress(new java.net.InetSocketAddress("127.0.0.1", 0))
        .addService(new io.envoyproxy.envoy.service.ext_proc.v3.ExternalProcessorGrpc.ExternalProcessorImplBase() {
          @Override
          public io.grpc.stub.StreamObserver<io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest> process(
              io.grpc.stub.StreamObserver<io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse> out) {
            return new io.grpc.stub.StreamObserver<>() {
              @Override
              public void onNext(io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest r) {
                if (r.hasRequestHeaders()) {
                  var mutation = io.envoyproxy.envoy.service.ext_proc.v3.HeaderMutation.newBuilder();
                  for (String[] h : new String[][] {{":path", "/v1/completions?picked=1"}, {"host", "elsewhere"},
                      {":authority", "elsewhere"}, {":method", "GET"}, {"x-envoy-retry-on", "5xx"},
                      {"x-picked-by", "fake-epp"}, {"x-gateway-destination-endpoint", b.hostPort()}}) {
                    mutation.addSetHeaders(dev.modelplane.router.extproc.ExtProcMessages.setHeader(h[0], h[1]));
                  }
                  mutation.addRemoveHeaders(":method").addRemoveHeaders("host").addRemoveHeaders("x-drop-me");
                  out.onNext(io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse.newBuilder()
                      .setRequestHeaders(io.envoyproxy.envoy.service.ext_proc.v3.HeadersResponse.newBuilder()
                          .setResponse(io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse.newBuilder()
                              .setHeaderMutation(mutation))).build());
                } else if (r.hasRequestBody() && r.getRequestBody().getEndOfStream()) {
                  out.onNext(io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse.newBuilder()
                      .setRequestBody(io.envoyproxy.envoy.service.ext_proc.v3.BodyResponse.newBuilder()
                          .setResponse(io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse.getDefaultInstance()))
                      .build());
                }
              }

              @Override
              public void onError(Throwable t) {
              }

              @Override
              public void onCompleted() {
                out.onCompleted();
              }
            };
          }
        }).build().start();
    closeables.add(() -> picker.shutdownNow().awaitTermination(5, java.util.concurrent.TimeUnit.SECONDS));
    Router gw = gateway("127.0.0.1:" + picker.getPort(), false);

    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gw.gatewayPort()
        + "/v1/completions")).header("x-drop-me", "1").timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"m\",\"prompt\":\"hi\"}")).build(),
        HttpResponse.BodyHandlers.ofString());

    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(b.uris()).containsExactly("/v1/completions?picked=1");
    io.vertx.core.MultiMap seen = b.headers().getFirst();
    assertThat(seen.get("x-picked-by")).isEqualTo("fake-epp");
    assertThat(seen.get("host")).isEqualTo(b.hostPort());
    assertThat(seen.names()).doesNotContain("x-envoy-retry-on", "x-drop-me", ":path", ":authority", ":method");
    assertThat(a.requests()).isZero();
  }

  @Test
  void eppErrorsReachTheClient() throws Exception {
    Router gw = gateway("127.0.0.1:" + epp.extProcPort(), false);
    HttpResponse<String> r = post(gw, "{\"prompt\":\"no model\"}");
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(r.body()).contains("model not found in request body");
  }

  @Test
  void failCloseAnswers503WhenTheEppIsDown() throws Exception {
    Router gw = gateway("127.0.0.1:" + deadPort(), false);
    HttpResponse<String> r = post(gw, "{\"model\":\"m\",\"prompt\":\"x\"}");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).contains("endpoint picker unavailable");
    assertThat(a.requests() + b.requests()).isZero();
  }

  @Test
  void failOpenPicksAnEndpointItself() throws Exception {
    Router gw = gateway("127.0.0.1:" + deadPort(), true);
    HttpResponse<String> r = post(gw, "{\"model\":\"m\",\"prompt\":\"x\"}");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(a.requests() + b.requests()).isEqualTo(1);
  }

  @Test
  void grpcHealthReportsLivenessReadinessAndExtProc() throws Exception {
    ManagedChannel ch = NettyChannelBuilder.forAddress("127.0.0.1", epp.grpcHealthPort()).usePlaintext().build();
    try {
      HealthGrpc.HealthBlockingStub health = HealthGrpc.newBlockingStub(ch);
      for (String service : List.of("liveness", "readiness", "envoy.service.ext_proc.v3.ExternalProcessor")) {
        assertThat(health.check(HealthCheckRequest.newBuilder().setService(service).build()).getStatus())
            .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
      }
    } finally {
      ch.shutdownNow();
    }
  }
}
