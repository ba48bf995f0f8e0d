package dev.modelplane.router.extproc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.ListValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.metrics.RouterMetrics;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.Endpoint;
import dev.modelplane.router.pool.PoolKey;
import dev.modelplane.router.pool.PoolRegistry;
import dev.modelplane.router.request.RequestDirector;
import dev.modelplane.testsupport.Hostile;
import io.envoyproxy.envoy.config.core.v3.Metadata;
import io.envoyproxy.envoy.extensions.filters.http.ext_proc.v3.ProcessingMode;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpBody;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpHeaders;
import io.envoyproxy.envoy.service.ext_proc.v3.HttpTrailers;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingRequest;
import io.envoyproxy.envoy.service.ext_proc.v3.ProcessingResponse;
import io.envoyproxy.envoy.service.ext_proc.v3.ProtocolConfiguration;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.ShrinkingMode;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * One ext_proc stream driven by generated message sequences, as a confused or hostile proxy might send them:
 * request and response headers, bodies and trailers in any order, missing headers, random bytes, empty and large
 * bodies, garbage metadata, then a half-close or an error. The stream never throws out of its observer methods; it
 * answers with processing responses, an immediate 4xx/503 or a gRPC status; never an immediate 500 but GIE's own
 * for a body-less request whose subset hint leaves no endpoint.
 */
class ExtProcStreamFuzzTest {
  private static final String CHAT = "{\"model\":\"m\",\"stream\":%s,\"messages\":[{\"role\":\"user\",\"content\":"
      + "\"hi\"}]}";
  /** GIE answers a body-less request with no endpoint to send it to with this Internal error; so does the picker. */
  private static final String NO_ENDPOINT = "no pods available in datastore";
  private static final ScheduledExecutorService FLOW = Executors.newSingleThreadScheduledExecutor();
  private static PoolRegistry pools;
  private static RouterMetrics metrics;
  private static RequestDirector director;

  @BeforeContainer
  static void start() {
    pools = new PoolRegistry();
    pools.getOrCreate(PoolKey.STATIC).setEndpoints(List.of(Endpoint.ofStatic("10.0.0.1", 8000),
        Endpoint.ofStatic("10.0.0.2", 8000)));
    SchedulingSetup setup = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null)
        .load(ConfigLoader.DEFAULT_CONFIG);
    metrics = new RouterMetrics(pools, System::nanoTime, 2_000_000_000L);
    director = new RequestDirector(setup, metrics, System::nanoTime, FLOW);
  }

  @AfterContainer
  static void stop() {
    FLOW.shutdownNow();
  }

  @Property(tries = 3000, seed = "7371", shrinking = ShrinkingMode.OFF)
  void anySequenceIsAnsweredWithoutThrowing(@ForAll("randoms") Random random) {
    List<ProcessingRequest> sequence = new ArrayList<>();
    int length = 1 + random.nextInt(10);
    for (int i = 0; i < length; i++) {
      sequence.add(message(random, i == 0));
    }
    check(sequence, random);
  }

  /** Envoy's order (headers, body, response headers, body, trailers) with hostile content and metadata. */
  @Property(tries = 2000, seed = "7372", shrinking = ShrinkingMode.OFF)
  void wellOrderedSequencesWithHostileContent(@ForAll("randoms") Random random) {
    ProcessingRequest.Builder headers = ProcessingRequest.newBuilder().setRequestHeaders(HttpHeaders.newBuilder()
        .setHeaders(EnvoySimulator.headerMap(requestHeaders(random))));
    ProcessingRequest.Builder body = ProcessingRequest.newBuilder().setRequestBody(HttpBody.newBuilder()
        .setBody(ByteString.copyFrom(random.nextInt(4) == 0 ? body(random)
            : CHAT.formatted(random.nextBoolean()).getBytes(StandardCharsets.UTF_8))).setEndOfStream(true));
    ProcessingRequest.Builder responseHeaders = message(random, false).toBuilder().setResponseHeaders(
        HttpHeaders.newBuilder().setHeaders(EnvoySimulator.headerMap(Map.of(
            ":status", pick(random, "200", "500", "abc", "", " 2000000000000 ", "-1"),
            "content-type", pick(random, "application/json", "text/event-stream", ""))))
            .setEndOfStream(random.nextInt(4) == 0));
    if (random.nextInt(3) > 0) {
      responseHeaders.setMetadataContext(metadata(random));
    }
    List<ProcessingRequest> sequence = new ArrayList<>(List.of(headers.build(), body.build(),
        responseHeaders.build()));
    for (int i = random.nextInt(4); i > 0; i--) {
      sequence.add(ProcessingRequest.newBuilder().setResponseBody(HttpBody.newBuilder()
          .setBody(ByteString.copyFrom(body(random))).setEndOfStream(random.nextInt(3) == 0)).build());
    }
    if (random.nextBoolean()) {
      sequence.add(ProcessingRequest.newBuilder().setResponseTrailers(HttpTrailers.getDefaultInstance()).build());
    }
    check(sequence, random);
  }

  /**
   * A stream that answered everything would pass the properties above; this one fails it. A well-formed request —
   * headers, then a valid body of any size (up to a few MiB, in one chunk or many), in buffered or streamed mode —
   * is routed: the headers response names a destination and the body goes on unchanged; its bytes are given back
   * when the stream ends.
   */
  @Property(tries = 200, seed = "7373", shrinking = ShrinkingMode.OFF)
  void validRequestsAreRoutedWhateverTheirSize(@ForAll("randoms") Random r) {
    long before = director.inflight().used();
    StringBuilder sb = new StringBuilder("{\"model\":\"m\",\"stream\":").append(r.nextBoolean())
        .append(",\"messages\":[");
    int messages = r.nextInt(4) == 0 ? 10_000 + r.nextInt(40_000) : 1 + r.nextInt(50);
    for (int i = 0; i < messages; i++) {
      sb.append(i == 0 ? "" : ",").append("{\"role\":\"user\",\"content\":\"message ").append(i).append("\"}");
    }
    String big = r.nextInt(4) == 0 ? "x".repeat(1 + r.nextInt(3 << 20)) : "hi";
    byte[] body = sb.append(",{\"role\":\"user\",\"content\":\"").append(big).append("\"}]}").toString()
        .getBytes(StandardCharsets.UTF_8);
    List<ProcessingRequest> sequence = new ArrayList<>();
    boolean streamed = r.nextBoolean();
    ProcessingRequest.Builder headers = ProcessingRequest.newBuilder().setRequestHeaders(HttpHeaders.newBuilder()
        .setHeaders(EnvoySimulator.headerMap(Map.of(":path", "/v1/chat/completions", ":method", "POST",
            "content-type", "application/json"))));
    if (!streamed) {
      headers.setProtocolConfig(ProtocolConfiguration.newBuilder().setRequestBodyMode(
          ProcessingMode.BodySendMode.BUFFERED));
    }
    sequence.add(headers.build());
    int chunks = streamed ? 1 + r.nextInt(20) : 1;
    int at = 0;
    for (int c = 0; c < chunks; c++) {
      int len = c == chunks - 1 ? body.length - at : r.nextInt(body.length - at + 1);
      sequence.add(ProcessingRequest.newBuilder().setRequestBody(HttpBody.newBuilder()
          .setBody(ByteString.copyFrom(body, at, len)).setEndOfStream(c == chunks - 1)).build());
      at += len;
    }
    Recorder recorder = new Recorder();
    ExtProcStream stream = new ExtProcStream(recorder, director, pools, metrics, false, 8L << 20);
    sequence.forEach(stream::onNext);
    assertThat(recorder.summary()).isEqualTo("responses");
    List<String> setHeaders = new ArrayList<>();
    java.io.ByteArrayOutputStream forwarded = new java.io.ByteArrayOutputStream();
    for (ProcessingResponse resp : recorder.responses) {
      assertThat(resp.hasRequestHeaders() || resp.hasRequestBody()).as("routed: %s", resp).isTrue();
      var common = resp.hasRequestHeaders() ? resp.getRequestHeaders().getResponse()
          : resp.getRequestBody().getResponse();
      common.getHeaderMutation().getSetHeadersList().forEach(h -> setHeaders.add(h.getHeader().getKey()));
      var mutation = common.getBodyMutation();
      forwarded.writeBytes((mutation.hasStreamedResponse() ? mutation.getStreamedResponse().getBody()
          : mutation.getBody()).toByteArray());
    }
    assertThat(setHeaders).contains(EppProtocol.DESTINATION_ENDPOINT_KEY);
    if (forwarded.size() > 0) {
      assertThat(forwarded.toByteArray()).isEqualTo(body);
    }
    stream.onCompleted();
    assertThat(director.inflight().used()).as("bytes given back").isEqualTo(before);
    Statistics.label("size").collect(body.length < 1 << 16 ? "<64KiB" : body.length < 1 << 20 ? "<1MiB" : ">=1MiB");
  }

  private static void check(List<ProcessingRequest> sequence, Random random) {
    int end = random.nextInt(3);
    long before = director.inflight().used();
    Recorder recorder = new Recorder();
    Statistics.label("outcome").collect(Hostile.outcome(() -> {
      ExtProcStream stream = new ExtProcStream(recorder, director, pools, metrics, random.nextInt(4) == 0,
          random.nextInt(3) == 0 ? 256 : 32L << 20);
      for (ProcessingRequest r : sequence) {
        stream.onNext(r);
      }
      if (end == 0) {
        stream.onCompleted();
      } else if (end == 1) {
        stream.onError(Status.CANCELLED.asRuntimeException());
      }
      return null;
    }));
    Statistics.label("answer").collect(recorder.summary());
    if (end != 2) {
      // The stream ended, however: whatever it reserved of the in-flight budget is back.
      assertThat(director.inflight().used()).isEqualTo(before);
    }
    for (ProcessingResponse r : recorder.responses) {
      if (r.hasImmediateResponse()) {
        int status = r.getImmediateResponse().getStatus().getCodeValue();
        String body = r.getImmediateResponse().getBody().toStringUtf8();
        assertThat(body).contains("\"error\"");
        if (!body.contains(NO_ENDPOINT)) {
          assertThat(status).as(body).isNotEqualTo(500);
        }
      }
    }
  }

  /** One message of any kind; the first is request headers most of the time, as it would be. */
  private static ProcessingRequest message(Random r, boolean first) {
    ProcessingRequest.Builder b = ProcessingRequest.newBuilder();
    int kind = first && r.nextInt(4) > 0 ? 0 : r.nextInt(8);
    switch (kind) {
      case 0 -> b.setRequestHeaders(HttpHeaders.newBuilder().setHeaders(EnvoySimulator.headerMap(requestHeaders(r)))
          .setEndOfStream(r.nextInt(5) == 0));
      case 1, 2 -> b.setRequestBody(HttpBody.newBuilder().setBody(ByteString.copyFrom(body(r)))
          .setEndOfStream(r.nextInt(3) > 0));
      case 3 -> b.setRequestTrailers(HttpTrailers.getDefaultInstance());
      case 4 -> b.setResponseHeaders(HttpHeaders.newBuilder().setHeaders(EnvoySimulator.headerMap(Map.of(
          ":status", pick(r, "200", "500", "abc", "", " 2000000000000 ", "-1"),
          "content-type", pick(r, "application/json", "text/event-stream", "")))).setEndOfStream(r.nextInt(4) == 0));
      case 5 -> b.setResponseBody(HttpBody.newBuilder().setBody(ByteString.copyFrom(body(r)))
          .setEndOfStream(r.nextBoolean()));
      case 6 -> b.setResponseTrailers(HttpTrailers.getDefaultInstance());
      default -> {
        // no request case at all
      }
    }
    if (r.nextInt(6) == 0) {
      b.setProtocolConfig(ProtocolConfiguration.newBuilder().setRequestBodyMode(
          ProcessingMode.BodySendMode.forNumber(r.nextInt(5)) == null ? ProcessingMode.BodySendMode.NONE
              : ProcessingMode.BodySendMode.forNumber(r.nextInt(5))));
    }
    if (r.nextInt(4) == 0) {
      b.setMetadataContext(metadata(r));
    }
    return b.build();
  }

  private static Map<String, String> requestHeaders(Random r) {
    Map<String, String> h = new LinkedHashMap<>();
    if (r.nextInt(5) > 0) {
      h.put(":path", pick(r, "/v1/chat/completions", "/v1/completions", "/", "", "/v1/embeddings?x"));
    }
    if (r.nextBoolean()) {
      h.put(":method", pick(r, "POST", "GET", ""));
    }
    if (r.nextInt(4) == 0) {
      h.put(PoolRegistry.POOL_HEADER, pick(r, "static", "nope", "a/b", "/", ""));
    }
    if (r.nextInt(3) == 0) {
      h.put(RequestDirector.REQUEST_ID, pick(r, "", "id-1", "\u00e9".repeat(200)));
    }
    if (r.nextInt(4) == 0) {
      h.put(RequestDirector.MODEL_REWRITE, pick(r, "", "m2", "\u202e"));
    }
    if (r.nextInt(5) == 0) {
      h.put(RequestDirector.OBJECTIVE, pick(r, "", "critical", "\u0000"));
    }
    return h;
  }

  private static byte[] body(Random r) {
    return switch (r.nextInt(6)) {
      case 0 -> new byte[0];
      case 1 -> {
        byte[] b = new byte[r.nextInt(300)];
        r.nextBytes(b);
        yield b;
      }
      case 2 -> CHAT.formatted(r.nextBoolean()).substring(0, r.nextInt(CHAT.length())).getBytes(
          StandardCharsets.UTF_8);
      case 3 -> ("{\"model\":\"m\",\"prompt\":\"" + "x".repeat(r.nextInt(200_000)) + "\"}")
          .getBytes(StandardCharsets.UTF_8);
      default -> CHAT.formatted(r.nextBoolean()).getBytes(StandardCharsets.UTF_8);
    };
  }

  private static Metadata metadata(Random r) {
    String served = pick(r, "10.0.0.1:8000", "10.0.0.9:1", "garbage", "", ":", "[::1", "host:99999", "a:b:c");
    Value hint = r.nextBoolean() ? Value.newBuilder().setStringValue(pick(r, "10.0.0.1:8000", ",,", "x", "")).build()
        : Value.newBuilder().setListValue(ListValue.newBuilder().addValues(Value.newBuilder()
            .setStringValue(pick(r, "10.0.0.2:8000", "nope")))).build();
    return Metadata.newBuilder()
        .putFilterMetadata(EppProtocol.DESTINATION_ENDPOINT_NAMESPACE, Struct.newBuilder().putFields(
            EppProtocol.DESTINATION_ENDPOINT_SERVED_KEY, Value.newBuilder().setStringValue(served).build()).build())
        .putFilterMetadata(EppProtocol.SUBSET_FILTER_NAMESPACE, Struct.newBuilder().putFields(
            EppProtocol.SUBSET_FILTER_KEY, hint).build())
        .build();
  }

  private static String pick(Random r, String... options) {
    return options[r.nextInt(options.length)];
  }

  @Provide
  Arbitrary<Random> randoms() {
    return Arbitraries.randoms();
  }

  /** Records what the stream sends to the proxy. */
  private static final class Recorder implements StreamObserver<ProcessingResponse> {
    final List<ProcessingResponse> responses = new ArrayList<>();
    Throwable error;
    boolean completed;

    @Override
    public synchronized void onNext(ProcessingResponse value) {
      responses.add(value);
    }

    @Override
    public synchronized void onError(Throwable t) {
      error = t;
    }

    @Override
    public synchronized void onCompleted() {
      completed = true;
    }

    synchronized String summary() {
      for (ProcessingResponse r : responses) {
        if (r.hasImmediateResponse()) {
          return "immediate " + r.getImmediateResponse().getStatus().getCodeValue();
        }
      }
      if (error != null) {
        return "grpc " + Status.fromThrowable(error).getCode();
      }
      return responses.isEmpty() ? "nothing" : "responses";
    }
  }
}
