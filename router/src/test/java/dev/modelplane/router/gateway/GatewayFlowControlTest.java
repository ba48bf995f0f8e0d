package dev.modelplane.router.gateway;

import dev.modelplane.router.datalayer.MetricsScraper;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.testing.FakeModelServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Admission and flow control through the gateway. */
class GatewayFlowControlTest extends GatewayHarness {
  private static final String FLOW_CONTROL = """
      featureGates: [flowControl]
      plugins:
      - type: queue-scorer
      flowControl:
        maxRequests: 1
        defaultRequestTTL: 2s
      """;

  @Test
  void flowControlQueuesWhileSaturatedThenTtlGives503AndCapacityGives429() throws Exception {
    FakeModelServer a = server("a").metrics(50, 0.1);
    router(a.hostPort(), FLOW_CONTROL, 1 << 20);
    EndpointPool pool = router.pools().get(PoolKey.STATIC);
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.endpoints().get(0).metrics().waitingQueueSize() == 50);
    CompletableFuture<HttpResponse<String>> queued = CompletableFuture.supplyAsync(() -> {
      try {
        return post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"first\"}");
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    await().atMost(Duration.ofSeconds(10)).until(() -> router.metrics().scrape().lines()
        .anyMatch(l -> l.startsWith("inference_extension_flow_control_queue_size{fairness_id=\"default-flow\",")
            && l.contains(",priority=\"0\"}")));
    HttpResponse<String> overCapacity = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"second\"}");
    assertThat(overCapacity.statusCode()).isEqualTo(429);
    HttpResponse<String> expired = queued.get(20, java.util.concurrent.TimeUnit.SECONDS);
    assertThat(expired.statusCode()).isEqualTo(503);
    assertThat(expired.body()).contains("timed out in queue");
    assertThat(a.requests()).isZero();
  }

  @Test
  void aPoolDeletedAndCreatedAgainUnderItsNameIsMeasuredAnewNotReadAsSaturated() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), FLOW_CONTROL.replace("2s", "30s"), 1 << 20);
    assertThat(post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"first\"}").statusCode()).isEqualTo(200);
    List<dev.modelplane.router.pool.Endpoint> endpoints = router.pools().get(PoolKey.STATIC).endpoints().stream()
        .map(dev.modelplane.router.pool.EndpointState::endpoint).toList();
    router.pools().remove(PoolKey.STATIC); // as discovery does when the InferencePool is deleted
    router.pools().getOrCreate(PoolKey.STATIC).setEndpoints(endpoints); // and created again
    HttpResponse<String> again = post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"again\"}");
    assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    assertThat(a.requests()).isEqualTo(2);
  }

  @Test
  void flowControlReleasesQueuedRequestsOnceTheServerHasRoom() throws Exception {
    FakeModelServer a = server("a").metrics(50, 0.1);
    router(a.hostPort(), FLOW_CONTROL.replace("2s", "30s"), 1 << 20);
    EndpointPool pool = router.pools().get(PoolKey.STATIC);
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.endpoints().get(0).metrics().waitingQueueSize() == 50);
    CompletableFuture<HttpResponse<String>> queued = CompletableFuture.supplyAsync(() -> {
      try {
        return post("/v1/completions", "{\"model\":\"m\",\"prompt\":\"waits\"}");
      } catch (Exception e) {
        throw new RuntimeException(e);
      }
    });
    await().atMost(Duration.ofSeconds(10)).until(() -> router.metrics().scrape().lines()
        .anyMatch(l -> l.startsWith("inference_extension_flow_control_queue_size{fairness_id=\"default-flow\",")
            && l.contains(",priority=\"0\"}")));
    assertThat(queued).isNotDone();
    a.metrics(0, 0.1);
    assertThat(queued.get(20, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    assertThat(a.requests()).isEqualTo(1);
  }

  @Test
  void aBurstReleasedByFlowControlIsSpreadAcrossEndpoints() throws Exception {
    // Sixteen requests wait while four servers report long queues; when the queues empty they are released in one
    // burst, before any new scrape (1 s apart). Each decision counts against its endpoint until that endpoint's next
    // scrape, so the burst spreads four per server instead of landing wherever the scraped queues tie at random.
    List<FakeModelServer> four = new ArrayList<>();
    for (String name : List.of("a", "b", "c", "d")) {
      four.add(server(name).metrics(50, 0.1));
    }
    String config = """
        featureGates: [flowControl]
        plugins:
        - type: queue-scorer
        - type: utilization-detector
          parameters:
            metricsStalenessThreshold: 10s
        saturationDetector:
          pluginRef: utilization-detector
        """;
    router(String.join(",", four.stream().map(FakeModelServer::hostPort).toList()), config, 1 << 20,
        new MetricsScraper.Settings(Duration.ofSeconds(1), Duration.ofSeconds(1), "/metrics", 0));
    EndpointPool pool = router.pools().get(PoolKey.STATIC);
    await().atMost(Duration.ofSeconds(10)).until(() -> pool.endpoints().stream()
        .allMatch(e -> e.metrics().waitingQueueSize() == 50));
    List<CompletableFuture<HttpResponse<String>>> queued = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      String body = "{\"model\":\"m\",\"prompt\":\"burst " + i + "\"}";
      queued.add(CompletableFuture.supplyAsync(() -> {
        try {
          return post("/v1/completions", body);
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      }));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> router.metrics().scrape().lines()
        .anyMatch(l -> l.startsWith("inference_extension_flow_control_queue_size{fairness_id=\"default-flow\",")
            && l.contains(",priority=\"0\"}") && l.endsWith(" 16.0")));
    four.forEach(s -> s.metrics(0, 0.1));
    for (CompletableFuture<HttpResponse<String>> r : queued) {
      assertThat(r.get(20, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
    assertThat(four).extracting(FakeModelServer::requests).containsExactly(4, 4, 4, 4);
  }

  @Test
  void aPriorityHoldbackKeepsRoomForCriticalRequestsWhileSheddableOnesWait() throws Exception {
    // Two servers of two requests each (concurrency-detector); sheddable requests may fill half of that
    // (priority-holdback: ceilings 1.0 for priority 100, 0.5 for -10). Their streams are held open, so what is in
    // flight stays there: two sheddable requests run, two wait, and a critical one still goes straight through.
    FakeModelServer a = server("a").stream(3, 0);
    FakeModelServer b = server("b").stream(3, 0);
    CompletableFuture<Void> releaseA = a.holdAfterFirstChunk();
    CompletableFuture<Void> releaseB = b.holdAfterFirstChunk();
    String config = """
        featureGates: [flowControl]
        plugins:
        - type: concurrency-detector
          parameters: {maxConcurrency: 2}
        - type: priority-holdback-policy
          parameters: {minCeiling: 0.5}
        - type: queue-scorer
        saturationDetector: {pluginRef: concurrency-detector}
        schedulingProfiles:
        - name: default
          plugins: [{pluginRef: concurrency-detector}, {pluginRef: queue-scorer}]
        flowControl:
          usageLimitPolicyPluginRef: priority-holdback-policy
          priorityBands: [{priority: 100}, {priority: -10}]
        """;
    router(a.hostPort() + "," + b.hostPort(), config, 1 << 20);
    EndpointPool pool = router.pools().get(PoolKey.STATIC);
    pool.putObjective("batch", -10);
    pool.putObjective("critical", 100);
    List<CompletableFuture<HttpResponse<String>>> sheddable = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      sheddable.add(http.sendAsync(HttpRequest.newBuilder(uri("/v1/chat/completions"))
          .timeout(Duration.ofSeconds(20)).header("x-gateway-inference-objective", "batch")
          .POST(HttpRequest.BodyPublishers.ofString(chat("batch " + i, true))).build(),
          HttpResponse.BodyHandlers.ofString()));
    }
    await().atMost(Duration.ofSeconds(10)).until(() -> router.metrics().scrape().lines()
        .anyMatch(l -> l.startsWith("inference_extension_flow_control_queue_size{fairness_id=\"default-flow\",")
            && l.contains(",priority=\"-10\"}") && l.endsWith(" 2.0")));
    assertThat(a.requests() + b.requests()).isEqualTo(2);
    HttpResponse<String> critical = post("/v1/chat/completions", chat("urgent", false),
        "x-gateway-inference-objective", "critical");
    assertThat(critical.statusCode()).isEqualTo(200);
    assertThat(a.requests() + b.requests()).isEqualTo(3);
    assertThat(sheddable).noneMatch(CompletableFuture::isDone);
    releaseA.complete(null);
    releaseB.complete(null);
    for (CompletableFuture<HttpResponse<String>> r : sheddable) {
      assertThat(r.get(20, java.util.concurrent.TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    }
    assertThat(a.requests() + b.requests()).isEqualTo(5);
  }
}
