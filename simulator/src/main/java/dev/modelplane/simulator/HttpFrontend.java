package dev.modelplane.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.modelplane.common.metrics.MetricsRegistry;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The HTTP side of one rank on Vert.x: routing, bodies, errors, and SSE streaming of engine output. One instance
 * per event loop listens on the rank's port (Vert.x shares the socket and spreads connections), because a server
 * started outside a verticle would serve every connection from a single event loop.
 */
final class HttpFrontend {
  private static final String JSON_TYPE = "application/json";
  private final Vertx vertx;
  private final Rank rank;
  private final String podName = System.getenv("POD_NAME");
  private final String podNamespace = System.getenv("POD_NAMESPACE");
  private volatile int port;
  /** Names the engine requests of pooling inputs (no draw from the seeded generator, so outputs stay put). */
  private final AtomicLong pooledInputs = new AtomicLong();

  HttpFrontend(Vertx vertx, Rank rank) {
    this.vertx = vertx;
    this.rank = rank;
  }

  /** Listens on {@code port} (0: a free one) with one server per event loop; completes with the actual port. */
  Future<Integer> listen(String host, int port, int instances) {
    // HTTP/1.1 only, as vLLM's server: a client asking for an h2c upgrade gets an HTTP/1.1 answer. Upgraded
    // connections stalled after the 101 on larger answers (a /metrics page of some 50 KB) for clients that ask for
    // the upgrade by default, such as the JDK's HttpClient.
    HttpServerOptions options = new HttpServerOptions().setHost(host).setTcpNoDelay(true).setIdleTimeout(0)
        .setCompressionSupported(false).setAcceptBacklog(4096).setHttp2ClearTextEnabled(false);
    // Servers on one event loop each share the socket only when they name the same port, so port 0 is resolved
    // to a free port first.
    int concrete;
    try {
      concrete = port != 0 ? port : freePort(host);
    } catch (java.io.IOException e) {
      return Future.failedFuture(e);
    }
    return vertx.deployVerticle(() -> new Listener(new HttpServerOptions(options).setPort(concrete)),
        new io.vertx.core.DeploymentOptions().setInstances(instances)).map(x -> this.port);
  }

  private static int freePort(String host) throws java.io.IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket()) {
      s.bind(new java.net.InetSocketAddress(host, 0));
      return s.getLocalPort();
    }
  }

  /** One server on one event loop. */
  private final class Listener extends io.vertx.core.VerticleBase {
    private final HttpServerOptions options;

    Listener(HttpServerOptions options) {
      this.options = options;
    }

    @Override
    public Future<?> start() {
      return vertx.createHttpServer(options).requestHandler(HttpFrontend.this::handle).listen()
          .onSuccess(s -> port = s.actualPort());
    }
  }

  int actualPort() {
    return port;
  }

  private void handle(HttpServerRequest req) {
    HttpServerResponse resp = req.response();
    if (podName != null) {
      resp.putHeader("x-inference-pod", podName).putHeader("x-inference-port", String.valueOf(actualPort()));
    }
    if (podNamespace != null) {
      resp.putHeader("x-inference-namespace", podNamespace);
    }
    String path = req.path();
    HttpMethod method = req.method();
    switch (path) {
      case "/health", "/health/ready" -> {
        if (rank.ready()) {
          resp.setStatusCode(200).end();
        } else {
          error(resp, new ApiError(503, "The model is still loading.", null));
        }
      }
      case "/metrics" -> {
        rank.engine.refreshGauges();
        resp.putHeader("content-type", MetricsRegistry.CONTENT_TYPE).end(rank.metrics.scrape());
      }
      case "/v1/models" -> onlyWhenReady(req, HttpMethod.GET,
          () -> resp.putHeader("content-type", JSON_TYPE).end(rank.modelsJson()));
      case "/v1/chat/completions" -> withBody(req, body -> completion(req, body, true));
      case "/v1/completions" -> withBody(req, body -> completion(req, body, false));
      case "/v1/embeddings" -> withBody(req, body -> pooled(resp, () -> PoolingApis.embeddings(rank, body)));
      case "/rerank", "/v1/rerank", "/v2/rerank" -> withBody(req, body -> pooled(resp,
          () -> PoolingApis.rerank(rank, body)));
      case "/score", "/v1/score" -> withBody(req, body -> pooled(resp, () -> PoolingApis.score(rank, body)));
      case "/v1/responses" -> withBody(req, body -> generate(req, () -> ResponsesApi.parse(body, rank),
          p -> new ResponsesApi.Writer(rank, p, resp, vertx.getOrCreateContext()), false));
      case "/v1/messages" -> withBody(req, true, body -> generate(req, () -> MessagesApi.parse(body, rank),
          p -> new MessagesApi.Writer(rank, p, resp, vertx.getOrCreateContext()), true));
      case "/v1/messages/count_tokens" -> withBody(req, true, body -> {
        try {
          resp.putHeader("content-type", JSON_TYPE).end(MessagesApi.countTokens(body, rank));
        } catch (CompletionRequest.RequestException e) {
          anthropicError(resp, e.error);
        }
      });
      case "/tokenize" -> withBody(req, body -> json(resp, () -> rank.tokenizeJson(body)));
      case "/detokenize" -> withBody(req, body -> json(resp, () -> rank.detokenizeJson(body)));
      case "/v1/chat/completions/render" -> withBody(req, body -> json(resp, () -> rank.renderJson(body, true)));
      case "/v1/completions/render" -> withBody(req, body -> json(resp, () -> rank.renderJson(body, false)));
      case "/v1/load_lora_adapter" -> withBody(req, body -> loadLora(resp, body));
      case "/v1/unload_lora_adapter" -> withBody(req, body -> unloadLora(resp, body));
      default -> error(resp, ApiError.notFound("No route for " + method + " " + path + "."));
    }
  }

  private void onlyWhenReady(HttpServerRequest req, HttpMethod method, Runnable action) {
    if (req.method() != method) {
      error(req.response(), new ApiError(405, "Method " + req.method() + " is not allowed here.", null));
    } else if (!rank.ready()) {
      error(req.response(), new ApiError(503, "The model is still loading.", null));
    } else {
      action.run();
    }
  }

  /** Reads a JSON body (POST only, size-limited) and hands it on; answers 400/405/413/503 itself. */
  private void withBody(HttpServerRequest req, Consumer<JsonNode> next) {
    withBody(req, false, next);
  }

  /** As {@link #withBody(HttpServerRequest, Consumer)}, with errors in Anthropic's shape when {@code anthropic}. */
  private void withBody(HttpServerRequest req, boolean anthropic, Consumer<JsonNode> next) {
    HttpServerResponse resp = req.response();
    Consumer<ApiError> error = e -> fail(resp, e, anthropic);
    if (req.method() != HttpMethod.POST) {
      error.accept(new ApiError(405, "Method " + req.method() + " is not allowed here; use POST.", null));
      return;
    }
    if (!rank.ready()) {
      error.accept(new ApiError(503, "The model is still loading.", null));
      return;
    }
    int limit = rank.config.maxRequestBodyBytes();
    Buffer body = Buffer.buffer();
    boolean[] failed = {false};
    req.handler(chunk -> {
      if (failed[0]) {
        return;
      }
      if (body.length() + chunk.length() > limit) {
        failed[0] = true;
        error.accept(new ApiError(413, "The request body exceeds " + limit + " bytes.", null));
        req.connection().close();
        return;
      }
      body.appendBuffer(chunk);
    });
    req.endHandler(v -> {
      if (failed[0]) {
        return;
      }
      JsonNode node;
      try {
        node = Rank.JSON.readTree(body.getBytes());
      } catch (java.io.IOException e) {
        String detail = e.getMessage() == null ? "" : e.getMessage().split("\n")[0];
        error.accept(ApiError.badRequest("The request body is not valid JSON: " + detail));
        return;
      }
      if (node == null || node.isMissingNode()) {
        error.accept(ApiError.badRequest("The request body is empty; a JSON object is required."));
        return;
      }
      next.accept(node);
    });
  }

  private interface JsonProducer {
    String get() throws CompletionRequest.RequestException;
  }

  private void json(HttpServerResponse resp, JsonProducer producer) {
    try {
      resp.putHeader("content-type", JSON_TYPE).end(producer.get());
    } catch (CompletionRequest.RequestException e) {
      error(resp, e.error);
    }
  }

  static void error(HttpServerResponse resp, ApiError e) {
    if (resp.ended() || resp.headWritten()) {
      return;
    }
    resp.setStatusCode(e.status()).putHeader("content-type", JSON_TYPE).end(e.toJson());
  }

  private void loadLora(HttpServerResponse resp, JsonNode body) {
    String name = body.path("lora_name").asText("");
    String path = body.path("lora_path").asText("");
    if (name.isEmpty() || path.isEmpty()) {
      error(resp, ApiError.badRequest("Both 'lora_name' and 'lora_path' must be provided."));
      return;
    }
    if (!rank.adapters.add(new LoraAdapters.Adapter(name, path, rank.config.model(),
        System.currentTimeMillis() / 1000))) {
      error(resp, ApiError.badRequest("The lora adapter '" + name + "' has already been loaded."));
      return;
    }
    resp.putHeader("content-type", "text/plain").end("Success: LoRA adapter '" + name + "' added successfully.");
  }

  private void unloadLora(HttpServerResponse resp, JsonNode body) {
    String name = body.path("lora_name").asText("");
    if (name.isEmpty()) {
      error(resp, ApiError.badRequest("'lora_name' must be provided."));
    } else if (!rank.adapters.remove(name)) {
      error(resp, ApiError.notFound("The lora adapter '" + name + "' cannot be found."));
    } else {
      resp.putHeader("content-type", "text/plain").end("Success: LoRA adapter '" + name + "' removed successfully.");
    }
  }

  private interface PooledProducer {
    Rank.Pooled get() throws CompletionRequest.RequestException;
  }

  /** Prefills each input of a pooling request as an engine request of its own, then answers. */
  private void pooled(HttpServerResponse resp, PooledProducer producer) {
    Rank.Pooled pooled;
    try {
      pooled = producer.get();
    } catch (CompletionRequest.RequestException e) {
      error(resp, e.error);
      return;
    }
    PrefillAnswer answer = new PrefillAnswer(resp, vertx.getOrCreateContext(), pooled.answer(),
        pooled.prompts().size());
    List<Sequence> submitted = new ArrayList<>();
    for (int[] prompt : pooled.prompts()) {
      int[] ids = prompt.length > 0 ? prompt : new int[] {0}; // an empty input still takes an engine step
      Sequence seq = new Sequence("pool-" + pooledInputs.incrementAndGet(), ids, List.of(""), new int[] {0}, "stop",
          1, pooled.adapter(), answer);
      ApiError rejected = rank.engine.submit(seq);
      if (rejected != null) {
        submitted.forEach(rank.engine::cancel);
        error(resp, rejected);
        return;
      }
      submitted.add(seq);
    }
    resp.closeHandler(v -> submitted.stream().filter(s -> !s.done).forEach(rank.engine::cancel));
  }

  private interface RequestProducer {
    CompletionRequest get() throws CompletionRequest.RequestException;
  }

  /** A generation in another API's shape (Responses, Anthropic's Messages): its errors in Anthropic's if asked. */
  private void generate(HttpServerRequest req, RequestProducer request,
      Function<Rank.Prepared, EventWriter> writers, boolean anthropic) {
    HttpServerResponse resp = req.response();
    Rank.Prepared p;
    try {
      p = rank.prepare(request.get());
    } catch (CompletionRequest.RequestException e) {
      fail(resp, e.error, anthropic);
      return;
    }
    EventWriter writer = writers.apply(p);
    run(req, p, writer, writer.id, anthropic);
  }

  private static void fail(HttpServerResponse resp, ApiError e, boolean anthropic) {
    if (anthropic) {
      anthropicError(resp, e);
    } else {
      error(resp, e);
    }
  }

  private static void anthropicError(HttpServerResponse resp, ApiError e) {
    if (!resp.ended() && !resp.headWritten()) {
      resp.setStatusCode(e.status()).putHeader("content-type", JSON_TYPE).end(e.toAnthropicJson());
    }
  }

  private void completion(HttpServerRequest req, JsonNode body, boolean chat) {
    HttpServerResponse resp = req.response();
    Rank.Prepared p;
    try {
      p = rank.prepare(CompletionRequest.parse(body, chat, rank.tokenizer));
    } catch (CompletionRequest.RequestException e) {
      error(resp, e.error);
      return;
    }
    Context ctx = vertx.getOrCreateContext();
    ResponseWriter writer = new ResponseWriter(rank, p, resp, ctx, chat);
    run(req, p, writer, writer.id, false);
  }

  /**
   * Hands a prepared generation to the engine; a stream's head goes out at once, its first events (opening ones
   * included) with its first token, when the prefill is over.
   */
  private void run(HttpServerRequest req, Rank.Prepared p, Sequence.Listener writer, String id, boolean anthropic) {
    HttpServerResponse resp = req.response();
    Sequence seq = new Sequence(id, p.promptIds(), p.output().tokens(), p.output().ids(),
        p.output().finishReason(), p.maxTokens(), p.adapter(), writer);
    SequenceSpans spans = rank.engine.spans;
    if (spans.enabled()) {
      seq.traceParent = spans.parent(req.getHeader("traceparent"), req.getHeader("tracestate"));
    }
    ApiError rejected = rank.engine.submit(seq);
    if (rejected != null) {
      fail(resp, rejected, anthropic);
      return;
    }
    resp.closeHandler(v -> {
      if (!seq.done) {
        rank.engine.cancel(seq);
      }
    });
    if (p.request().stream()) {
      resp.setChunked(true).putHeader("content-type", "text/event-stream").putHeader("cache-control", "no-cache");
      resp.writeHead();
    }
  }
}
