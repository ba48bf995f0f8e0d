package dev.modelplane.router.gateway;

import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.router.load.InFlightLoadProducer;
import dev.modelplane.router.pool.EndpointId;
import dev.modelplane.router.testing.FakeModelServer;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** llm-d's plugins behind the real gateway: the session token's round trip and in-flight token accounting. */
class LlmdPluginsGatewayTest extends GatewayHarness {
  private static final String SERVED = "x-gateway-destination-endpoint-served";
  private static final String SESSION_FILTER = """
      plugins:
      - type: session-affinity-filter
      - type: random-picker
      schedulingProfiles:
      - name: default
        plugins:
        - pluginRef: session-affinity-filter
        - pluginRef: random-picker
      """;

  /** Waits (at most 10 s) for {@code condition}. */
  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() - deadline).as(what).isNegative();
      Thread.sleep(5);
    }
  }

  @Test
  void theSessionTokenOnTheResponsePinsTheRequestsThatSendItBack() throws Exception {
    FakeModelServer a = server("a");
    FakeModelServer b = server("b");
    router(a.hostPort() + "," + b.hostPort(), SESSION_FILTER, 1 << 20);
    HttpResponse<String> first = post("/v1/chat/completions", chat("hello", true));
    assertThat(first.statusCode()).isEqualTo(200);
    String served = first.headers().firstValue(SERVED).orElseThrow();
    String token = first.headers().firstValue("x-session-token").orElseThrow();
    assertThat(new String(Base64.getDecoder().decode(token), StandardCharsets.UTF_8)).isEqualTo("static/" + served);

    for (int i = 0; i < 12; i++) {
      HttpResponse<String> next = post("/v1/chat/completions", chat("more " + i, i % 2 == 0), "x-session-token", token);
      assertThat(next.headers().firstValue(SERVED)).contains(served);
      assertThat(next.headers().firstValue("x-session-token")).contains(token);
    }
    Set<String> unpinned = new HashSet<>();
    for (int i = 0; i < 12; i++) {
      unpinned.add(post("/v1/chat/completions", chat("free " + i, false)).headers().firstValue(SERVED).orElseThrow());
    }
    assertThat(unpinned).as("without the token the random picker uses both").hasSize(2);
  }

  @Test
  void promptTokensCountUntilTheResponseStartsAndTheRequestUntilItEnds() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), PickerConfigs.LLMD_RECOMMENDED.yaml(), 1 << 20);
    InFlightLoadProducer producer = (InFlightLoadProducer) router.setup().plugins().get(InFlightLoadProducer.TYPE);
    EndpointId id = new EndpointId("static", a.hostPort());

    a.responseDelay(2_000);
    CompletableFuture<HttpResponse<String>> plain = send(chat("x".repeat(4_000), false));
    await(() -> producer.load(id).requests() == 1, "the request is charged when it is sent");
    assertThat(producer.load(id).tokens()).as("its prompt, about 1,000 tokens").isBetween(1_000L, 1_100L);
    assertThat(plain.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    await(() -> producer.load(id).equals(InFlightLoadProducer.Load.ZERO), "released when the response ended");

    a.responseDelay(0);
    CompletableFuture<Void> hold = a.holdAfterFirstChunk();
    CompletableFuture<HttpResponse<String>> streamed = send(chat("y".repeat(4_000), true));
    await(() -> producer.load(id).equals(new InFlightLoadProducer.Load(1, 0)),
        "the first chunk ends prefill: tokens released, the request still running");
    hold.complete(null);
    assertThat(streamed.get(20, TimeUnit.SECONDS).statusCode()).isEqualTo(200);
    await(() -> producer.load(id).equals(InFlightLoadProducer.Load.ZERO), "released when the stream ended");
  }

  private CompletableFuture<HttpResponse<String>> send(String body) {
    return http.sendAsync(HttpRequest.newBuilder(uri("/v1/chat/completions")).timeout(Duration.ofSeconds(20))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
