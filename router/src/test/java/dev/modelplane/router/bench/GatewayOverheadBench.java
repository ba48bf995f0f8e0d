package dev.modelplane.router.bench;

import dev.modelplane.router.testing.FakeModelServer;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Gateway overhead versus a direct connection, measured side by side in one run: C concurrent clients each stream
 * chat completions back to back (SSE, {@code chunks} events {@code chunkMs} apart) from an in-process vLLM
 * look-alike, first directly, then through {@code modelplane router} running as its own process. Reports streams/s,
 * time to first event and stream duration percentiles, and the ratios.
 *
 * <p>Usage: {@code GatewayOverheadBench <modelplane.jar> <java> [seconds] [concurrency,…]}; see hack/bench-router.sh.
 */
public final class GatewayOverheadBench {
  private static final String BODY = "{\"model\":\"m\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":"
      + "\"benchmark prompt\"}]}";

  record Result(String target, int concurrency, double streamsPerSecond, double ttfbP50, double ttfbP99,
      double durationP50, double durationP99, long errors, long streams, double benchCpuMs, double routerCpuMs) {
  }

  private static double cpuMs(ProcessHandle p) {
    return p.info().totalCpuDuration().map(d -> d.toNanos() / 1e6).orElse(Double.NaN);
  }

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    String java = args[1];
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    int[] levels = args.length > 3 ? Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {1, 100, 1000};
    int chunks = 16;
    long chunkMs = 20;
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    FakeModelServer upstream = new FakeModelServer(vertx, "upstream").stream(chunks, chunkMs).start();
    int gatewayPort;
    try (ServerSocket s = new ServerSocket(0)) {
      gatewayPort = s.getLocalPort();
    }
    List<String> command = new ArrayList<>(List.of(java, "-Xmx1g"));
    String extra = System.getenv("BENCH_ROUTER_JVM_OPTS"); // e.g. a JFR recording while profiling
    if (extra != null && !extra.isBlank()) {
      command.addAll(List.of(extra.trim().split("\\s+")));
    }
    command.addAll(List.of("-jar", jar.toString(), "router", "--endpoints", upstream.hostPort(), "--port",
        String.valueOf(gatewayPort), "--grpc-port", "-1", "--grpc-health-port", "-1", "--metrics-port", "-1",
        "--no-access-log", "--event-loops", "2"));
    Process router = new ProcessBuilder(command).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
    try {
      waitForHealth(gatewayPort);
      List<Result> results = new ArrayList<>();
      for (int c : levels) {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true)
            .setConnectTimeout(10_000), new PoolOptions().setHttp1MaxSize(c + 16));
        run(vertx, client, upstream.port(), c, 2, "warmup", router);
        results.add(run(vertx, client, upstream.port(), c, seconds, "direct", router));
        run(vertx, client, gatewayPort, c, 2, "warmup", router);
        results.add(run(vertx, client, gatewayPort, c, seconds, "gateway", router));
        client.close().toCompletionStage().toCompletableFuture().get();
      }
      print(results, chunks, chunkMs, seconds);
    } finally {
      router.destroy();
      if (!router.waitFor(10, TimeUnit.SECONDS)) {
        router.destroyForcibly();
      }
      upstream.close();
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }

  private static void waitForHealth(int port) throws Exception {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    for (int i = 0; i < 300; i++) {
      try {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/health"))
            .timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (java.io.IOException e) {
        Thread.sleep(100);
      }
    }
    throw new IllegalStateException("router did not become healthy on port " + port);
  }

  private static Result run(Vertx vertx, HttpClient client, int port, int concurrency, int seconds, String label,
      Process router) throws Exception {
    double benchCpu0 = cpuMs(ProcessHandle.current());
    double routerCpu0 = cpuMs(router.toHandle());
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    AtomicBoolean stop = new AtomicBoolean();
    List<long[]> samples = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicLong errors = new AtomicLong();
    CountDownLatch done = new CountDownLatch(concurrency);
    long started = System.nanoTime();
    for (int i = 0; i < concurrency; i++) {
      vertx.runOnContext(v -> loop(client, port, end, samples, errors, done));
    }
    if (!done.await(seconds + 60L, TimeUnit.SECONDS)) {
      stop.set(true);
    }
    double elapsed = (System.nanoTime() - started) / 1e9;
    double benchCpu = cpuMs(ProcessHandle.current()) - benchCpu0;
    double routerCpu = cpuMs(router.toHandle()) - routerCpu0;
    long[] ttfb = samples.stream().mapToLong(s -> s[0]).sorted().toArray();
    long[] dur = samples.stream().mapToLong(s -> s[1]).sorted().toArray();
    return new Result(label.equals("warmup") ? "warmup" : label, concurrency, samples.size() / elapsed,
        pct(ttfb, 0.50), pct(ttfb, 0.99), pct(dur, 0.50), pct(dur, 0.99), errors.get(), samples.size(), benchCpu,
        routerCpu);
  }

  private static void loop(HttpClient client, int port, long end, List<long[]> samples, AtomicLong errors,
      CountDownLatch done) {
    if (System.nanoTime() >= end) {
      done.countDown();
      return;
    }
    long t0 = System.nanoTime();
    long[] first = {0};
    client.request(new RequestOptions().setMethod(HttpMethod.POST).setHost("127.0.0.1").setPort(port)
            .setURI("/v1/chat/completions").putHeader("content-type", "application/json"))
        .compose(req -> req.send(BODY))
        .onComplete(ar -> {
          if (ar.failed()) {
            errors.incrementAndGet();
            loop(client, port, end, samples, errors, done);
            return;
          }
          var resp = ar.result();
          resp.handler(buf -> {
            if (first[0] == 0) {
              first[0] = System.nanoTime();
            }
          });
          resp.endHandler(v -> {
            long now = System.nanoTime();
            if (resp.statusCode() == 200 && first[0] != 0) {
              samples.add(new long[] {first[0] - t0, now - t0});
            } else {
              errors.incrementAndGet();
            }
            loop(client, port, end, samples, errors, done);
          });
          resp.exceptionHandler(t -> {
            errors.incrementAndGet();
          });
        });
  }

  private static double pct(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    return sorted[(int) Math.min(sorted.length - 1, Math.floor(p * sorted.length))] / 1e6;
  }

  private static void print(List<Result> results, int chunks, long chunkMs, int seconds) {
    System.out.printf(Locale.ROOT, "stream: %d SSE events, %d ms apart (~%d ms per stream); %d s per run%n", chunks,
        chunkMs, chunks * chunkMs, seconds);
    System.out.println("| concurrent streams | path | streams/s | first event p50 (ms) | first event p99 (ms) "
        + "| stream p50 (ms) | stream p99 (ms) | errors | load-generator+upstream CPU ms/stream "
        + "| gateway CPU ms/stream |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (Result r : results) {
      if (r.target().equals("warmup")) {
        continue;
      }
      System.out.printf(Locale.ROOT, "| %d | %s | %.1f | %.2f | %.2f | %.1f | %.1f | %d | %.3f | %s |%n",
          r.concurrency(), r.target(), r.streamsPerSecond(), r.ttfbP50(), r.ttfbP99(), r.durationP50(),
          r.durationP99(), r.errors(), r.benchCpuMs() / Math.max(1, r.streams()),
          r.target().equals("gateway") ? String.format(Locale.ROOT, "%.3f", r.routerCpuMs() / Math.max(1,
              r.streams())) : "-");
    }
    System.out.println();
    System.out.println("| concurrent streams | gateway/direct streams/s | added first-event p50 (ms) "
        + "| added first-event p99 (ms) |");
    System.out.println("|---|---|---|---|");
    for (int i = 0; i + 1 < results.size(); i++) {
      Result d = results.get(i);
      Result g = results.get(i + 1);
      if (d.target().equals("direct") && g.target().equals("gateway")) {
        System.out.printf(Locale.ROOT, "| %d | %.3f | %.2f | %.2f |%n", d.concurrency(),
            g.streamsPerSecond() / d.streamsPerSecond(), g.ttfbP50() - d.ttfbP50(), g.ttfbP99() - d.ttfbP99());
      }
    }
  }
}
