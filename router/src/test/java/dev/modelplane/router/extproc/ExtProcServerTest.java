package dev.modelplane.router.extproc;

import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.EndpointPool;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import io.envoyproxy.envoy.config.core.v3.HeaderValueOption;
import io.envoyproxy.envoy.service.ext_proc.v3.CommonResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.StreamedBodyResponse;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Envoy's ext_proc message sequence against the picker, checked message by message against the protocol. */
class ExtProcServerTest {
  private static final String A = "10.0.0.1:8000";
  private static final String B = "10.0.0.2:8000";

  private final PoolRegistry pools = new PoolRegistry();
  private final ScheduledExecutorService flow = Executors.newSingleThreadScheduledExecutor();
  private Server server;
  private ManagedChannel channel;
  private EndpointPool pool;

  @BeforeEach
  void start() throws Exception {
    pool = pools.getOrCreate(PoolKey.STATIC);
    pool.setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000), Endpoint.ofStatic("10.0.0.2", 8000)));
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null)
        .load(ConfigLoader.DEFAULT_CONFIG);
    RouterMetrics metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    RequestDirector director = new RequestDirector(setup, metrics, System::nanoTime, flow);
    String name = InProcessServerBuilder.generateName();
    server = InProcessServerBuilder.forName(name).directExecutor()
        .addService(new ExtProcService(director, pools, metrics, false)).build().start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() {
    channel.shutdownNow();
    server.shutdownNow();
    flow.shutdownNow();
  }

  private static Map<String, String> headers(String path, String... extra) {
    Map<String, String> h = new LinkedHashMap<>();
    h.put(":method", "POST");
    h.put(":path", path);
    h.put(":authority", "gateway");
    h.put("content-type", "application/json");
    for (int i = 0; i + 1 < extra.length; i += 2) {
      h.put(extra[i], extra[i + 1]);
    }
    return h;
  }

  private static Map<String, String> setHeaders(CommonResponse c) {
    Map<String, String> out = new HashMap<>();
    for (HeaderValueOption o : c.getHeaderMutation().getSetHeadersList()) {
      assertThat(o.getAppendAction()).isEqualTo(HeaderValueOption.HeaderAppendAction.OVERWRITE_IF_EXISTS_OR_ADD);
      out.put(o.getHeader().getKey(), o.getHeader().getRawValue().toStringUtf8());
    }
    return out;
  }

  private static String destinationMetadata(ProcessingResponse r) {
    return r.getDynamicMetadata().getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT_NAMESPACE).getStructValue()
        .getFieldsOrThrow(EppProtocol.DESTINATION_ENDPOINT_KEY).getStringValue();
  }

  /** Collects streamed body mutations until end_of_stream; checks the 62,000-byte limit on each. */
  private static byte[] collectBody(EnvoySimulator envoy, ProcessingResponse first, boolean request, int[] chunks)
      throws InterruptedException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ProcessingResponse r = first;
    while (true) {
      assertThat(request ? r.hasRequestBody() : r.hasResponseBody()).as("body response").isTrue();
      CommonResponse c = request ? r.getRequestBody().getResponse() : r.getResponseBody().getResponse();
      assertThat(c.getBodyMutation().hasStreamedResponse())
          .as("FULL_DUPLEX_STREAMED needs streamed_response mutations").isTrue();
      StreamedBodyResponse s = c.getBodyMutation().getStreamedResponse();
      assertThat(s.getBody().size()).isLessThanOrEqualTo(62_000);
      out.writeBytes(s.getBody().toByteArray());
      chunks[0]++;
      if (s.getEndOfStream()) {
        return out.toByteArray();
      }
      r = envoy.next();
    }
  }

  @Test
  void fullDuplexSequenceHoldsTheHeaderResponseUntilEndOfBody() throws Exception {
    String body = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}]}";
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/chat/completions", "x-request-id", "abc"), false);
      envoy.requestBody(body.substring(0, 20), false);
      // Direct executors: had the picker answered the headers early, the response would already be queued here.
      assertThat(envoy.pending()).isZero();
      envoy.requestBody(body.substring(20), true);

      ProcessingResponse headersResp = envoy.next();
      assertThat(headersResp.hasRequestHeaders()).isTrue();
      CommonResponse common = headersResp.getRequestHeaders().getResponse();
      assertThat(common.getClearRouteCache()).isTrue();
      Map<String, String> set = setHeaders(common);
      String destination = set.get(EppProtocol.DESTINATION_ENDPOINT_KEY);
      assertThat(destination).isIn(A, B);
      assertThat(destinationMetadata(headersResp)).isEqualTo(destination);
      assertThat(set).containsEntry("content-length", String.valueOf(body.length())).doesNotContainKey("x-request-id");

      int[] chunks = {0};
      byte[] forwarded = collectBody(envoy, envoy.next(), true, chunks);
      assertThat(new String(forwarded, StandardCharsets.UTF_8)).isEqualTo(body);

      envoy.responseHeaders(Map.of(":status", "200", "content-type", "text/event-stream"), destination, false);
      ProcessingResponse respHeaders = envoy.next();
      assertThat(respHeaders.hasResponseHeaders()).isTrue();
      assertThat(setHeaders(respHeaders.getResponseHeaders().getResponse()))
          .containsEntry("x-went-into-resp-headers", "true");

      envoy.responseBody("data: {\"model\":\"m\",\"choices\":[]}\n\n", false);
      ProcessingResponse c1 = envoy.next();
      StreamedBodyResponse s1 = c1.getResponseBody().getResponse().getBodyMutation().getStreamedResponse();
      assertThat(s1.getBody().toStringUtf8()).contains("\"model\":\"m\"");
      assertThat(s1.getEndOfStream()).isFalse();
      envoy.responseBody("data: [DONE]\n\n", true);
      StreamedBodyResponse s2 = envoy.next().getResponseBody().getResponse().getBodyMutation().getStreamedResponse();
      assertThat(s2.getBody().toStringUtf8()).isEqualTo("data: [DONE]\n\n");
      assertThat(s2.getEndOfStream()).isTrue();
      envoy.halfClose();
      assertThat(envoy.completedNext()).isTrue();
    }
  }

  @Test
  void largeBodyIsSplitIntoChunksOfAtMost62000Bytes() throws Exception {
    String prompt = "0123456789abcdef".repeat(12_500); // 200,000 bytes of prompt
    byte[] body = ("{\"model\":\"m\",\"prompt\":\"" + prompt + "\"}").getBytes(StandardCharsets.UTF_8);
    assertThat(body.length).isGreaterThan(128 * 1024);
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/completions"), false);
      for (int off = 0; off < body.length; off += 65_536) {
        int end = Math.min(body.length, off + 65_536);
        envoy.requestBody(java.util.Arrays.copyOfRange(body, off, end), end == body.length);
      }
      ProcessingResponse h = envoy.next();
      assertThat(setHeaders(h.getRequestHeaders().getResponse()))
          .containsEntry("content-length", String.valueOf(body.length));
      int[] chunks = {0};
      byte[] forwarded = collectBody(envoy, envoy.next(), true, chunks);
      assertThat(forwarded).isEqualTo(body);
      assertThat(chunks[0]).isEqualTo((body.length + 61_999) / 62_000);
    }
  }

  @Test
  void anUnreadableServedEndpointInTheResponseMetadataIsIgnored() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/completions"), false).requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      assertThat(envoy.next().hasRequestHeaders()).isTrue();
      assertThat(envoy.next().hasRequestBody()).isTrue();
      // Before: Destination.parse threw out of onNext and the proxy saw the stream fail with UNKNOWN.
      envoy.responseHeaders(Map.of(":status", "200"), "garbage", false);
      ProcessingResponse r = envoy.next();
      assertThat(r.hasResponseHeaders()).isTrue();
      envoy.responseBody("{\"model\":\"m\"}", true);
      assertThat(envoy.next().hasResponseBody()).isTrue();
    }
  }

  @Test
  void missingModelIsAnImmediate400() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/completions"), false).requestBody("{\"prompt\":\"hi\"}", true);
      ProcessingResponse r = envoy.next();
      assertThat(r.hasImmediateResponse()).isTrue();
      assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(400);
      assertThat(r.getImmediateResponse().getBody().toStringUtf8()).contains("model not found in request body");
      assertThat(envoy.completedNext()).isTrue();
    }
  }

  @Test
  void rerankMessagesAndUnknownPathsAreRoutedNotRefused() throws Exception {
    Map<String, String> bodies = new LinkedHashMap<>();
    bodies.put("/v1/rerank", "{\"model\":\"m\",\"query\":\"q\",\"documents\":[\"a\",\"b\"]}");
    bodies.put("/v1/messages", "{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\","
        + "\"content\":\"hi\"}]}");
    bodies.put("/v1/some/new/api", "not json at all");
    for (Map.Entry<String, String> e : bodies.entrySet()) {
      try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
        envoy.requestHeaders(headers(e.getKey()), false).requestBody(e.getValue(), true);
        ProcessingResponse r = envoy.next();
        assertThat(r.hasImmediateResponse()).as(e.getKey() + " answered " + r).isFalse();
        assertThat(setHeaders(r.getRequestHeaders().getResponse()).get(EppProtocol.DESTINATION_ENDPOINT_KEY))
            .as(e.getKey()).isIn(A, B);
        assertThat(new String(collectBody(envoy, envoy.next(), true, new int[1]), StandardCharsets.UTF_8))
            .isEqualTo(e.getValue());
      }
    }
  }

  @Test
  void adminPathsAndTraceAreAnImmediate404FromTheHeaders() throws Exception {
    for (String path : new String[] {"/sleep", "/v1/load_lora_adapter", "/v1/../collective_rpc", "/%73erver_info"}) {
      try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
        envoy.requestHeaders(headers(path), false);
        ProcessingResponse r = envoy.next();
        assertThat(r.getImmediateResponse().getStatus().getCodeValue()).as(path).isEqualTo(404);
        assertThat(r.getImmediateResponse().getBody().toStringUtf8()).as(path).contains("unsupported route POST");
      }
    }
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      Map<String, String> trace = headers("/v1/messages");
      trace.put(":method", "TRACE");
      envoy.requestHeaders(trace, true);
      ProcessingResponse r = envoy.next();
      assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(404);
      assertThat(r.getImmediateResponse().getBody().toStringUtf8()).startsWith("{\"type\":\"error\"");
    }
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1%2Fload_lora_adapter"), false);
      assertThat(envoy.next().getImmediateResponse().getStatus().getCodeValue()).isEqualTo(400);
    }
  }

  @Test
  void anInvalidAnthropicMessagesRequestIsAnImmediate400InAnthropicsShape() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/messages"), false).requestBody("{\"model\":\"m\",\"messages\":[]}", true);
      ProcessingResponse r = envoy.next();
      assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(400);
      assertThat(r.getImmediateResponse().getBody().toStringUtf8()).isEqualTo("{\"type\":\"error\",\"error\":"
          + "{\"type\":\"invalid_request_error\",\"message\":\"invalid messages request: must have at least one "
          + "message\"}}");
    }
  }

  @Test
  void malformedJsonIsAnImmediate400() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/chat/completions"), false).requestBody("{\"model\":", true);
      ProcessingResponse r = envoy.next();
      assertThat(r.getImmediateResponse().getStatus().getCodeValue()).isEqualTo(400);
    }
  }

  @Test
  void subsetHintRestrictsTheChoiceAndAnEmptyHintIs503() throws Exception {
    for (int i = 0; i < 10; i++) {
      try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
        envoy.requestHeaders(headers("/v1/completions"), List.of(B)).requestBody("{\"model\":\"m\",\"prompt\":\"p"
            + i + "\"}", true);
        assertThat(setHeaders(envoy.next().getRequestHeaders().getResponse()))
            .containsEntry(EppProtocol.DESTINATION_ENDPOINT_KEY, B);
      }
    }
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/completions"), List.of()).requestBody("{\"model\":\"m\",\"prompt\":\"p\"}",
          true);
      assertThat(envoy.next().getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
    }
  }

  @Test
  void modelRewriteChangesTheBodyAndIsUndoneInTheResponse() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/completions", "x-gateway-model-name-rewrite", "m-v2"), false)
          .requestBody("{\"model\":\"m\",\"prompt\":\"hi\"}", true);
      ProcessingResponse h = envoy.next();
      byte[] forwarded = collectBody(envoy, envoy.next(), true, new int[1]);
      String fwd = new String(forwarded, StandardCharsets.UTF_8);
      assertThat(fwd).contains("\"model\":\"m-v2\"");
      assertThat(setHeaders(h.getRequestHeaders().getResponse()))
          .containsEntry("content-length", String.valueOf(forwarded.length));
      envoy.responseHeaders(Map.of(":status", "200", "content-type", "application/json"), null, false);
      envoy.next();
      envoy.responseBody("{\"model\":\"m-v2\",", false);
      assertThat(envoy.pending()).as("non-streamed responses are buffered").isZero();
      envoy.responseBody("\"choices\":[]}", true);
      byte[] resp = collectBody(envoy, envoy.next(), false, new int[1]);
      assertThat(new String(resp, StandardCharsets.UTF_8)).isEqualTo("{\"model\":\"m\",\"choices\":[]}");
    }
  }

  @Test
  void headersOnlyRequestGetsAnEndpointAtOnce() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(Map.of(":method", "GET", ":path", "/v1/models"), true);
      ProcessingResponse r = envoy.next();
      Map<String, String> set = setHeaders(r.getRequestHeaders().getResponse());
      assertThat(set.get(EppProtocol.DESTINATION_ENDPOINT_KEY)).isIn(A, B);
      assertThat(set).containsKey("x-request-id");
      assertThat(destinationMetadata(r)).isEqualTo(set.get(EppProtocol.DESTINATION_ENDPOINT_KEY));
    }
  }

  @Test
  void noEndpointIs503() throws Exception {
    pool.setEndpoints(List.of());
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/completions"), false).requestBody("{\"model\":\"m\",\"prompt\":\"x\"}", true);
      assertThat(envoy.next().getImmediateResponse().getStatus().getCodeValue()).isEqualTo(503);
    }
  }

  @Test
  void trailersEndTheBodyAndGetATrailersResponse() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.requestHeaders(headers("/v1/completions"), false)
          .requestBody("{\"model\":\"m\",\"prompt\":\"x\"}", false)
          .requestTrailers();
      assertThat(envoy.next().hasRequestHeaders()).isTrue();
      ProcessingResponse b = envoy.next();
      assertThat(b.getRequestBody().getResponse().getBodyMutation().getStreamedResponse().getEndOfStream()).isFalse();
      assertThat(envoy.next().hasRequestTrailers()).isTrue();
    }
  }

  @Test
  void bufferedModeAnswersHeadersAtOnceAndRoutesOnTheBody() throws Exception {
    try (EnvoySimulator envoy = new EnvoySimulator(channel)) {
      envoy.send(io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest.newBuilder()
          .setRequestHeaders(io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders.newBuilder()
              .setHeaders(EnvoySimulator.headerMap(headers("/v1/completions"))))
          .setProtocolConfig(io.envoyproxy.envoy.service.ext_proc.v3.ProtocolConfiguration.newBuilder()
              .setRequestBodyMode(io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode.BodySendMode
                  .BUFFERED))
          .build());
      ProcessingResponse h = envoy.next();
      assertThat(h.hasRequestHeaders()).isTrue();
      assertThat(h.getRequestHeaders().getResponse().getHeaderMutation().getSetHeadersCount()).isZero();
      envoy.requestBody("{\"model\":\"m\",\"prompt\":\"x\"}", true);
      ProcessingResponse b = envoy.next();
      assertThat(b.hasRequestBody()).isTrue();
      assertThat(b.getRequestBody().getResponse().getBodyMutation().hasStreamedResponse()).isFalse();
      assertThat(setHeaders(b.getRequestBody().getResponse())).containsKey(EppProtocol.DESTINATION_ENDPOINT_KEY);
      assertThat(destinationMetadata(b)).isIn(A, B);
    }
  }
}
