package dev.modelplane.simulator.bench;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Open-loop load generator for the simulator benchmarks (docs/benchmarks.md): streaming {@code /v1/completions}
 * with {@code ignore_eos}, arrivals Poisson at {@code rate} (or all at once), unique prompts of {@code prompt}
 * words; measures TTFT and ITL on the client and samples running/waiting/KV-usage from /metrics. Loopback only;
 * bounded by {@code requests} and a deadline.
 *
 * <p>{@code LoadGen port requests rate promptWords outputTokens label [model] [scrapeMillis]} (rate 0 = all at once).
 */
public final class LoadGen {
  private static final Pattern GAUGE = Pattern.compile(
      "^(vllm:num_requests_running|vllm:num_requests_waiting|vllm:kv_cache_usage_perc)(\\{[^}]*\\})? (\\S+)$",
      Pattern.MULTILINE);

  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    int requests = Integer.parseInt(args[1]);
    double rate = Double.parseDouble(args[2]);
    int promptWords = Integer.parseInt(args[3]);
    int output = Integer.parseInt(args[4]);
    String label = args[5];
    String model = args.length > 6 ? args[6] : "sim-model";
    int scrapeMillis = args.length > 7 ? Integer.parseInt(args[7]) : 250;
    int warmup = args.length > 8 ? Integer.parseInt(args[8]) : 0;
    if (warmup > 0) {
      // Unmeasured: JIT-compiles both sides' request paths so a cold start is not reported as latency.
      run(port, warmup, 0, promptWords, 2, "warmup", model, 100_000);
    }
    Map<String, Double> before = histograms(port);
    String report = run(port, requests, rate, promptWords, output, label, model, scrapeMillis);
    System.out.print(report);
    System.out.println(breakdown(label, before, histograms(port)));
  }

  private static final Pattern HISTOGRAM = Pattern.compile(
      "^(vllm:(?:request_queue_time|request_prefill_time|time_to_first_token|request_decode_time"
          + "|e2e_request_latency)_seconds_(?:sum|count))(\\{[^}]*\\})? (\\S+)$", Pattern.MULTILINE);

  /** The server's own latency histograms (sum and count), to split TTFT into queueing and prefill. */
  static Map<String, Double> histograms(int port) {
    Map<String, Double> out = new java.util.TreeMap<>();
    try {
      String text = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
          java.net.URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
          java.net.http.HttpResponse.BodyHandlers.ofString()).body();
      Matcher m = HISTOGRAM.matcher(text);
      while (m.find()) {
        out.merge(m.group(1), Double.parseDouble(m.group(3)), Double::sum);
      }
    } catch (Exception e) {
      // no breakdown then
    }
    return out;
  }

  /** Mean server-side queue, prefill, TTFT, decode and end-to-end time of the requests between two scrapes. */
  static String breakdown(String label, Map<String, Double> before, Map<String, Double> after) {
    StringBuilder out = new StringBuilder(label + ": server means (ms)");
    for (String name : List.of("request_queue_time", "request_prefill_time", "time_to_first_token",
        "request_decode_time", "e2e_request_latency")) {
      String sum = "vllm:" + name + "_seconds_sum";
      String count = "vllm:" + name + "_seconds_count";
      double n = after.getOrDefault(count, 0.0) - before.getOrDefault(count, 0.0);
      double total = after.getOrDefault(sum, 0.0) - before.getOrDefault(sum, 0.0);
      out.append(String.format(Locale.ROOT, " %s=%s", name, n > 0 ? String.format(Locale.ROOT, "%.1f/%d",
          1000 * total / n, (long) n) : "-"));
    }
    return out.toString();
  }

  record Sample(double t, double running, double waiting, double kv) {
  }

  static String run(int port, int requests, double rate, int promptWords, int output, String label, String model,
      int scrapeMillis) throws Exception {
    Vertx vertx = Vertx.vertx();
    // One client per event loop (each created inside its own verticle): a client used from outside Vert.x would
    // drive every connection from one event loop and make the client, not the server, the bottleneck.
    int laneCount = 2 * Runtime.getRuntime().availableProcessors();
    List<Lane> lanes = new ArrayList<>();
    for (int c = 0; c < laneCount; c++) {
      Lane lane = new Lane(port, requests / laneCount + 8);
      vertx.deployVerticle(lane).await();
      lanes.add(lane);
    }
    ConcurrentLinkedQueue<Double> ttfts = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<double[]> itls = new ConcurrentLinkedQueue<>();
    AtomicInteger tokens = new AtomicInteger();
    AtomicInteger failed = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(requests);
    List<Sample> samples = new ArrayList<>();
    SplittableRandom random = new SplittableRandom(20261122);
    long start = System.nanoTime();
    Thread scraper = Thread.ofPlatform().daemon().start(() -> scrape(port, start, scrapeMillis, samples, done));
    long next = start;
    for (int i = 0; i < requests; i++) {
      if (rate > 0) {
        next += (long) (-Math.log(1 - random.nextDouble()) / rate * 1e9);
        long sleep = next - System.nanoTime();
        if (sleep > 0) {
          Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
        }
      }
      String body = "{\"model\":\"" + model + "\",\"prompt\":\"" + prompt(label, i, promptWords) + "\",\"max_tokens\":" + output
          + ",\"ignore_eos\":true,\"stream\":true}";
      long sent = System.nanoTime();
      Lane lane = lanes.get(i % laneCount);
      lane.ctx.runOnContext(ignored -> lane.client.request(new RequestOptions().setMethod(HttpMethod.POST).setURI("/v1/completions")
              .putHeader("content-type", "application/json"))
          .compose(req -> req.send(Buffer.buffer(body)))
          .onSuccess(resp -> {
            if (resp.statusCode() != 200) {
              failed.incrementAndGet();
              done.countDown();
              return;
            }
            long[] last = {0};
            List<Double> mine = new ArrayList<>();
            StringBuilder buf = new StringBuilder();
            resp.handler(b -> {
              long now = System.nanoTime();
              buf.append(b.toString(StandardCharsets.UTF_8));
              int at;
              while ((at = buf.indexOf("\n\n")) >= 0) {
                String ev = buf.substring(0, at);
                buf.delete(0, at + 2);
                if (!ev.startsWith("data: {") || !ev.contains("\"text\"") || ev.contains("\"text\":\"\"")) {
                  continue;
                }
                tokens.incrementAndGet();
                if (last[0] == 0) {
                  ttfts.add((now - sent) / 1e9);
                } else {
                  mine.add((now - last[0]) / 1e9);
                }
                last[0] = now;
              }
            });
            resp.endHandler(v -> {
              itls.add(mine.stream().mapToDouble(Double::doubleValue).toArray());
              done.countDown();
            });
            resp.exceptionHandler(e -> failed.incrementAndGet());
          })
          .onFailure(e -> {
            failed.incrementAndGet();
            done.countDown();
          }));
    }
    boolean finished = done.await(600, TimeUnit.SECONDS);
    double wall = (System.nanoTime() - start) / 1e9;
    scraper.join(2000);
    vertx.close().await();

    double[] t = ttfts.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    double[] l = itls.stream().flatMapToDouble(Arrays::stream).sorted().toArray();
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%s: requests=%d ok=%d failed=%d tokens=%d (expected %d) wall=%.1fs%s%n",
        label, requests, t.length, failed.get(), tokens.get(), (long) requests * output, wall,
        finished ? "" : " (deadline hit)"));
    out.append(String.format(Locale.ROOT, "%s: TTFT p50=%.1fms p90=%.1fms p99=%.1fms | ITL p50=%.2fms p90=%.2fms "
        + "p99=%.2fms mean=%.2fms%n", label, p(t, 50), p(t, 90), p(t, 99), p(l, 50), p(l, 90), p(l, 99), mean(l)));
    synchronized (samples) {
      out.append(String.format(Locale.ROOT, "%s: metrics mean running=%.2f waiting=%.2f kv=%.4f | max running=%.0f "
              + "waiting=%.0f kv=%.4f (%d scrapes)%n", label,
          samples.stream().mapToDouble(Sample::running).average().orElse(0),
          samples.stream().mapToDouble(Sample::waiting).average().orElse(0),
          samples.stream().mapToDouble(Sample::kv).average().orElse(0),
          samples.stream().mapToDouble(Sample::running).max().orElse(0),
          samples.stream().mapToDouble(Sample::waiting).max().orElse(0),
          samples.stream().mapToDouble(Sample::kv).max().orElse(0), samples.size()));
      out.append(label).append(": trajectory (per second: running/waiting/kv%)");
      int second = -1;
      for (Sample s : samples) {
        if ((int) s.t() != second) {
          second = (int) s.t();
          out.append(String.format(Locale.ROOT, " %d:%.0f/%.0f/%.1f", second, s.running(), s.waiting(), s.kv() * 100));
        }
      }
    }
    return out.append('\n').toString();
  }

  private static void scrape(int port, long start, int every, List<Sample> samples, CountDownLatch done) {
    java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
    var req = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/metrics")).build();
    try {
      while (!done.await(every, TimeUnit.MILLISECONDS)) {
        String text = http.send(req, java.net.http.HttpResponse.BodyHandlers.ofString()).body();
        double[] v = new double[3];
        Matcher m = GAUGE.matcher(text);
        while (m.find()) {
          int i = switch (m.group(1)) {
            case "vllm:num_requests_running" -> 0;
            case "vllm:num_requests_waiting" -> 1;
            default -> 2;
          };
          v[i] = Double.parseDouble(m.group(3));
        }
        synchronized (samples) {
          samples.add(new Sample((System.nanoTime() - start) / 1e9, v[0], v[1], v[2]));
        }
      }
    } catch (Exception e) {
      // the run is over or the server went away; samples so far stand
    }
  }

  /** A verticle owning one HTTP client on one event loop. */
  static final class Lane extends io.vertx.core.VerticleBase {
    final int port;
    final int pool;
    volatile HttpClient client;
    volatile io.vertx.core.Context ctx;

    Lane(int port, int pool) {
      this.port = port;
      this.pool = pool;
    }

    @Override
    public io.vertx.core.Future<?> start() {
      ctx = context;
      client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port)
          .setIdleTimeout(0), new PoolOptions().setHttp1MaxSize(pool));
      return io.vertx.core.Future.succeededFuture();
    }
  }

  /** A prompt of {@code words} words unique to run {@code label} and request {@code i} (no shared prefix). */
  static String prompt(String label, int i, int words) {
    StringBuilder sb = new StringBuilder();
    String head = label.replaceAll("[^A-Za-z]", "") + i + "w";
    for (int w = 0; w < words; w++) {
      sb.append(head).append(w).append(' ');
    }
    return sb.toString().trim();
  }

  static double p(double[] sorted, int pct) {
    return sorted.length == 0 ? 0 : 1000 * sorted[Math.min(sorted.length - 1, (int) (sorted.length * pct / 100.0))];
  }

  static double mean(double[] v) {
    return v.length == 0 ? 0 : 1000 * Arrays.stream(v).average().orElse(0);
  }

  private LoadGen() {
  }
}
