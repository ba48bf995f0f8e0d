package dev.modelplane.router.testing;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A tiny vLLM look-alike on loopback for gateway tests: OpenAI chat/completions (JSON or SSE), {@code /v1/models} and
 * a {@code /metrics} page with vLLM names whose values the test sets.
 */
public final class FakeModelServer implements AutoCloseable {
  private final Vertx vertx;
  private final String name;
  private HttpServer server;
  private final AtomicInteger requests = new AtomicInteger();
  private volatile String modelList;
  private final List<HttpVersion> versions = new CopyOnWriteArrayList<>();
  private final AtomicInteger cancelled = new AtomicInteger();
  private final AtomicInteger completed = new AtomicInteger();
  private final List<JsonObject> bodies = new CopyOnWriteArrayList<>();
  private final List<io.vertx.core.MultiMap> headers = new CopyOnWriteArrayList<>();
  private final List<String> uris = new CopyOnWriteArrayList<>();
  private final List<String> methods = new CopyOnWriteArrayList<>();
  private final List<Buffer> rawBodies = new CopyOnWriteArrayList<>();
  private volatile int waiting;
  private volatile double kvUsage;
  private volatile int chunks = 3;
  private volatile long chunkDelayMs = 0;
  private volatile boolean dieAfterHead;
  private volatile boolean hang;
  private volatile long responseDelayMs;
  private volatile long bulkBytes;
  private final java.util.Set<io.vertx.core.http.HttpConnection> completionConnections =
      java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final java.util.concurrent.atomic.AtomicLong bulkWritten = new java.util.concurrent.atomic.AtomicLong();
  private String host = "127.0.0.1";
  private int bindPort;
  /** When set, the server sends the first SSE chunk and waits for this before the rest. */
  private final AtomicReference<CompletableFuture<Void>> gate = new AtomicReference<>();

  public FakeModelServer(Vertx vertx, String name) {
    this.vertx = vertx;
    this.name = name;
    this.modelList = "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\",\"owned_by\":\"" + name
        + "\"}]}";
  }

  public FakeModelServer start() throws Exception {
    server = vertx.createHttpServer().requestHandler(this::handle)
        .connectionHandler(c -> c.closeHandler(v -> completionConnections.remove(c)));
    server.listen(bindPort, host).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    return this;
  }

  /** Listens on {@code address:port} (another loopback address, a fixed port) instead of 127.0.0.1:any. */
  public FakeModelServer bind(String address, int port) {
    this.host = address;
    this.bindPort = port;
    return this;
  }

  public int port() {
    return server.actualPort();
  }

  public String hostPort() {
    return host + ":" + port();
  }

  /** Open connections that have carried a completion request (metrics scrapes not counted). */
  public int openConnections() {
    return completionConnections.size();
  }

  /** Completions are read and never answered (a server that accepts and hangs). */
  /** Answers {@code GET /v1/models} with this body, or 503 when {@code null} (a server still loading). */
  public FakeModelServer modelList(String json) {
    this.modelList = json;
    return this;
  }

  public FakeModelServer hang() {
    this.hang = true;
    return this;
  }

  /** Non-streamed completions are answered after this long (a long generation). */
  public FakeModelServer responseDelay(long ms) {
    this.responseDelayMs = ms;
    return this;
  }

  /** Streams answer {@code bytes} of SSE as fast as the connection takes them (back-pressure honoured). */
  public FakeModelServer bulkStream(long bytes) {
    this.bulkBytes = bytes;
    return this;
  }

  /** Bytes of the bulk stream the connection has accepted so far. */
  public long bulkWritten() {
    return bulkWritten.get();
  }

  public int requests() {
    return requests.get();
  }

  public int cancelled() {
    return cancelled.get();
  }

  public int completed() {
    return completed.get();
  }

  public List<JsonObject> bodies() {
    return bodies;
  }

  public List<io.vertx.core.MultiMap> headers() {
    return headers;
  }

  /** The request URIs (path and query) of the completions received, in order. */
  /** The HTTP version of every request it received but metrics scrapes, in order. */
  public List<HttpVersion> versions() {
    return versions;
  }

  public List<String> uris() {
    return uris;
  }

  /** The methods of the requests received, in order. */
  public List<String> methods() {
    return methods;
  }

  /** The bodies received as sent (a body that is not a JSON object is an empty object in {@link #bodies()}). */
  public List<Buffer> rawBodies() {
    return rawBodies;
  }

  public FakeModelServer metrics(int waitingRequests, double kv) {
    this.waiting = waitingRequests;
    this.kvUsage = kv;
    return this;
  }

  public FakeModelServer stream(int chunkCount, long delayMs) {
    this.chunks = chunkCount;
    this.chunkDelayMs = delayMs;
    return this;
  }

  /** Streams get their response head, then the connection is closed before any body byte (a crash in prefill). */
  public FakeModelServer dieAfterHead() {
    this.dieAfterHead = true;
    return this;
  }

  /** Holds every stream after its first chunk until the returned future completes. */
  public CompletableFuture<Void> holdAfterFirstChunk() {
    CompletableFuture<Void> f = new CompletableFuture<>();
    gate.set(f);
    return f;
  }

  private void handle(HttpServerRequest req) {
    if (!req.path().equals("/metrics")) {
      versions.add(req.version());
    }
    switch (req.path()) {
      case "/metrics" -> req.response().putHeader("content-type", "text/plain").end("""
          # TYPE vllm:num_requests_waiting gauge
          vllm:num_requests_waiting{model_name="m"} %d
          vllm:num_requests_running{model_name="m"} 0
          vllm:kv_cache_usage_perc{model_name="m"} %s
          vllm:cache_config_info{block_size="16",num_gpu_blocks="1000"} 1
          """.formatted(waiting, kvUsage));
      case "/v1/models" -> {
        String list = modelList;
        if (list == null) {
          req.response().setStatusCode(503).end();
        } else {
          req.response().putHeader("content-type", "application/json").end(list);
        }
      }
      default -> req.body().onSuccess(b -> completion(req, b));
    }
  }

  private void completion(HttpServerRequest req, Buffer b) {
    requests.incrementAndGet();
    completionConnections.add(req.connection());
    JsonObject body;
    try {
      body = b.length() == 0 ? new JsonObject() : b.toJsonObject();
    } catch (io.vertx.core.json.DecodeException | ClassCastException e) {
      body = new JsonObject(); // a form, or anything else a passed-through request carries
    }
    bodies.add(body);
    rawBodies.add(b);
    headers.add(req.headers());
    uris.add(req.uri());
    methods.add(req.method().name());
    var resp = req.response();
    resp.putHeader("x-fake-server", name);
    resp.closeHandler(v -> {
      if (!resp.ended()) {
        cancelled.incrementAndGet();
      }
    });
    String model = body.getString("model");
    if (hang) {
      return;
    }
    if (!body.getBoolean("stream", false)) {
      if (responseDelayMs > 0) {
        vertx.setTimer(responseDelayMs, t -> answer(resp, model));
      } else {
        answer(resp, model);
      }
      return;
    }
    resp.setChunked(true).putHeader("content-type", "text/event-stream");
    if (dieAfterHead) {
      resp.writeHead();
      vertx.setTimer(20, t -> req.connection().close());
      return;
    }
    if (bulkBytes > 0) {
      bulk(resp, bulkBytes);
      return;
    }
    sendChunk(resp, model, 0);
  }

  private void answer(io.vertx.core.http.HttpServerResponse resp, String model) {
    if (resp.closed()) {
      return;
    }
    resp.putHeader("content-type", "application/json").end(new JsonObject()
        .put("id", "cmpl-1").put("object", "chat.completion").put("model", model)
        .put("choices", new io.vertx.core.json.JsonArray().add(new JsonObject().put("index", 0)
            .put("message", new JsonObject().put("role", "assistant").put("content", "hello from " + name))
            .put("finish_reason", "stop")))
        .put("usage", new JsonObject().put("prompt_tokens", 5).put("completion_tokens", 3)
            .put("total_tokens", 8)).encode());
    completed.incrementAndGet();
  }

  private void bulk(io.vertx.core.http.HttpServerResponse resp, long remaining) {
    Buffer chunk = Buffer.buffer("data: " + "x".repeat(16 * 1024 - 8) + "\n\n");
    while (remaining > 0 && !resp.closed()) {
      if (resp.writeQueueFull()) {
        long left = remaining;
        resp.drainHandler(v -> bulk(resp, left));
        return;
      }
      resp.write(chunk);
      bulkWritten.addAndGet(chunk.length());
      remaining -= chunk.length();
    }
    if (!resp.closed()) {
      resp.end("data: [DONE]\n\n");
      completed.incrementAndGet();
    }
  }

  private void sendChunk(io.vertx.core.http.HttpServerResponse resp, String model, int i) {
    if (resp.closed()) {
      return;
    }
    if (i >= chunks) {
      resp.write("data: [DONE]\n\n");
      resp.end();
      completed.incrementAndGet();
      return;
    }
    JsonObject chunk = new JsonObject().put("id", "c").put("object", "chat.completion.chunk").put("model", model)
        .put("choices", new io.vertx.core.json.JsonArray().add(new JsonObject().put("index", 0)
            .put("delta", new JsonObject().put("content", "tok" + i + " "))));
    resp.write("data: " + chunk.encode() + "\n\n");
    CompletableFuture<Void> g = gate.get();
    if (i == 0 && g != null) {
      g.whenComplete((v, t) -> vertx.runOnContext(x -> sendChunk(resp, model, 1)));
      return;
    }
    if (chunkDelayMs > 0) {
      vertx.setTimer(chunkDelayMs, t -> sendChunk(resp, model, i + 1));
    } else {
      sendChunk(resp, model, i + 1);
    }
  }

  @Override
  public void close() throws Exception {
    if (server != null) {
      server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }
  }
}
