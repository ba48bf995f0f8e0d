package dev.modelplane.router.bench;

import static org.awaitility.Awaitility.await;

import dev.modelplane.router.testing.FakeModelServer;
import dev.modelplane.testsupport.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
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
import org.awaitility.core.ConditionTimeoutException;

/**
 * Gateway overhead versus a direct connection, measured side by side in one run: C concurrent clients each stream
 * chat completions back to back (SSE, {@code chunks} events {@code chunkMs} apart) from an in-process vLLM
 * look-alike, first directly, then through {@code modelplane router} running as its own process and, when the
 * environment variable {@code BENCH_NGINX} names an nginx binary, through nginx as a reference reverse proxy
 * (unbuffered, keep-alive upstream connections, the same number of worker threads as the gateway's event loops).
 * Reports streams/s, time to first event and stream duration percentiles, CPU per stream, and the ratios.
 *
 * With {@code BENCH_BASELINE_JAR} naming another build's {@code modelplane.jar}, that version's gateway is measured
 * in the same run too (rows "gateway (previous version)").
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

  /** CPU of a process and all its descendants (nginx's master and workers). */
  private static double treeCpuMs(ProcessHandle p) {
    return cpuMs(p) + p.descendants().mapToDouble(GatewayOverheadBench::cpuMs).sum();
  }

  /** Starts nginx in the foreground with its own prefix directory, proxying to {@code upstreamPort} unbuffered. */
  private static Process startNginx(String nginx, int port, int upstreamPort, int workers) throws Exception {
    Path prefix = java.nio.file.Files.createTempDirectory("bench-nginx");
    java.nio.file.Files.createDirectories(prefix.resolve("logs"));
    String conf = String.join("\n",
        "daemon off;",
        "worker_processes " + workers + ";",
        "pid " + prefix.resolve("nginx.pid") + ";",
        "error_log stderr warn;",
        "events { worker_connections 8192; }",
        "http {",
        "  access_log off;",
        "  client_body_temp_path " + prefix.resolve("body") + ";",
        "  proxy_temp_path " + prefix.resolve("proxy") + ";",
        "  fastcgi_temp_path " + prefix.resolve("fastcgi") + ";",
        "  uwsgi_temp_path " + prefix.resolve("uwsgi") + ";",
        "  scgi_temp_path " + prefix.resolve("scgi") + ";",
        "  upstream model { server 127.0.0.1:" + upstreamPort + "; keepalive 2048; }",
        "  server {",
        "    listen 127.0.0.1:" + port + ";",
        "    keepalive_requests 1000000;",
        "    location / {",
        "      proxy_pass http://model;",
        "      proxy_http_version 1.1;",
        "      proxy_set_header Connection \"\";",
        "      proxy_buffering off;",
        "      proxy_request_buffering off;",
        "    }",
        "  }",
        "}",
        "");
    Path file = prefix.resolve("nginx.conf");
    java.nio.file.Files.writeString(file, conf);
    Process p = new ProcessBuilder(nginx, "-p", prefix.toString(), "-c", file.toString(), "-e", "stderr")
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    try {
      await("nginx on port " + port).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100))
          .ignoreExceptions().until(() -> !p.isAlive() || http.send(HttpRequest.newBuilder(
              URI.create("http://127.0.0.1:" + port + "/metrics")).timeout(Duration.ofSeconds(1)).build(),
              HttpResponse.BodyHandlers.discarding()) != null);
    } catch (ConditionTimeoutException e) {
      p.destroyForcibly();
      throw e;
    }
    if (!p.isAlive()) {
      throw new IllegalStateException("nginx did not start on port " + port);
    }
    return p;
  }

  /** Starts {@code modelplane router} from {@code jar} as its own process, in front of {@code upstream}. */
  private static Process startRouter(String java, Path jar, String upstream, int port) throws java.io.IOException {
    List<String> command = new ArrayList<>(List.of(java, "-Xmx1g"));
    String extra = System.getenv("BENCH_ROUTER_JVM_OPTS"); // e.g. a JFR recording while profiling
    if (extra != null && !extra.isBlank()) {
      command.addAll(List.of(extra.trim().split("\\s+")));
    }
    command.addAll(List.of("-jar", jar.toString(), "router", "--endpoints", upstream, "--port",
        String.valueOf(port), "--grpc-port", "-1", "--grpc-health-port", "-1", "--metrics-port", "-1",
        "--no-access-log", "--event-loops", "2"));
    return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .start();
  }

  public static void main(String[] args) throws Exception {
    Path jar = Path.of(args[0]);
    String java = args[1];
    int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 8;
    int[] levels = args.length > 3 ? Arrays.stream(args[3].split(",")).mapToInt(Integer::parseInt).toArray()
        : new int[] {1, 100, 1000};
    int chunks = 16;
    long chunkMs = 20;
    String warmupText = System.getenv("BENCH_WARMUP_SECONDS");
    int warmup = warmupText == null || warmupText.isBlank() ? 2 : Integer.parseInt(warmupText.trim());
    Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(2));
    FakeModelServer upstream = new FakeModelServer(vertx, "upstream").stream(chunks, chunkMs).start();
    int gatewayPort = FreePorts.pick();
    String nginxBinary = System.getenv("BENCH_NGINX");
    Process nginx = null;
    Process router = startRouter(java, jar, upstream.hostPort(), gatewayPort);
    String baselineJar = System.getenv("BENCH_BASELINE_JAR");
    int baselinePort = -1;
    Process baseline = null;
    if (baselineJar != null && !baselineJar.isBlank()) {
      baselinePort = FreePorts.pick();
      baseline = startRouter(java, Path.of(baselineJar), upstream.hostPort(), baselinePort);
    }
    try {
      int nginxPort = -1;
      if (nginxBinary != null && !nginxBinary.isBlank()) {
        nginxPort = FreePorts.pick();
        nginx = startNginx(nginxBinary, nginxPort, upstream.port(), 2);
      }
      waitForHealth(gatewayPort);
      if (baseline != null) {
        waitForHealth(baselinePort);
      }
      List<Result> results = new ArrayList<>();
      for (int c : levels) {
        HttpClient client = vertx.createHttpClient(new HttpClientOptions().setKeepAlive(true)
            .setConnectTimeout(10_000), new PoolOptions().setHttp1MaxSize(c + 16));
        run(vertx, client, upstream.port(), c, warmup, "warmup", router);
        results.add(run(vertx, client, upstream.port(), c, seconds, "direct", router));
        run(vertx, client, gatewayPort, c, warmup, "warmup", router);
        results.add(run(vertx, client, gatewayPort, c, seconds, "gateway", router));
        if (baseline != null) {
          run(vertx, client, baselinePort, c, warmup, "warmup", baseline);
          results.add(run(vertx, client, baselinePort, c, seconds, "gateway (previous version)", baseline));
        }
        if (nginx != null) {
          run(vertx, client, nginxPort, c, warmup, "warmup", nginx);
          results.add(run(vertx, client, nginxPort, c, seconds, "nginx", nginx));
        }
        client.close().toCompletionStage().toCompletableFuture().get();
      }
      print(results, chunks, chunkMs, seconds);
    } finally {
      if (nginx != null) {
        nginx.destroy();
        if (!nginx.waitFor(10, TimeUnit.SECONDS)) {
          nginx.destroyForcibly();
        }
      }
      if (baseline != null) {
        baseline.destroy();
        baseline.waitFor(10, TimeUnit.SECONDS);
      }
      router.destroy();
      if (!router.waitFor(10, TimeUnit.SECONDS)) {
        router.destroyForcibly();
      }
      upstream.close();
      vertx.close().toCompletionStage().toCompletableFuture().get();
    }
  }

  private static void waitForHealth(int port) {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    await("router healthy on port " + port).atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .ignoreExceptions().until(() -> http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
            + "/health")).timeout(Duration.ofSeconds(1)).build(), HttpResponse.BodyHandlers.discarding())
            .statusCode() == 200);
  }

  private static Result run(Vertx vertx, HttpClient client, int port, int concurrency, int seconds, String label,
      Process router) throws Exception {
    double benchCpu0 = cpuMs(ProcessHandle.current());
    double routerCpu0 = treeCpuMs(router.toHandle());
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
    double routerCpu = treeCpuMs(router.toHandle()) - routerCpu0;
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
        + "| proxy CPU ms/stream |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|");
    for (Result r : results) {
      if (r.target().equals("warmup")) {
        continue;
      }
      System.out.printf(Locale.ROOT, "| %d | %s | %.1f | %.2f | %.2f | %.1f | %.1f | %d | %.3f | %s |%n",
          r.concurrency(), r.target(), r.streamsPerSecond(), r.ttfbP50(), r.ttfbP99(), r.durationP50(),
          r.durationP99(), r.errors(), r.benchCpuMs() / Math.max(1, r.streams()),
          !r.target().equals("direct") ? String.format(Locale.ROOT, "%.3f", r.routerCpuMs() / Math.max(1,
              r.streams())) : "-");
    }
    System.out.println();
    System.out.println("| concurrent streams | proxy | proxy/direct streams/s | added first-event p50 (ms) "
        + "| added first-event p99 (ms) |");
    System.out.println("|---|---|---|---|---|");
    Result direct = null;
    for (Result r : results) {
      if (r.target().equals("direct")) {
        direct = r;
      } else if (!r.target().equals("warmup") && direct != null && direct.concurrency() == r.concurrency()) {
        System.out.printf(Locale.ROOT, "| %d | %s | %.3f | %.2f | %.2f |%n", r.concurrency(), r.target(),
            r.streamsPerSecond() / direct.streamsPerSecond(), r.ttfbP50() - direct.ttfbP50(),
            r.ttfbP99() - direct.ttfbP99());
      }
    }
  }
}
