package dev.modelplane.cli;

import dev.modelplane.planner.fleet.RequestBodies;
import dev.modelplane.planner.workload.PlannedRequest;
import dev.modelplane.planner.workload.Workload;
import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sends a workload to a live gateway in real time, as its clients would: each request at its arrival time (open loop),
 * the same bodies a simulated run sends, streamed; it measures what the clients see, the way the simulation does.
 */
final class LiveReplay {
  /**
   * What the clients saw; latencies in seconds.
   *
   * @param ttft time to first token of each completed request
   * @param e2e end-to-end latency of each completed request
   * @param completed requests answered in full
   * @param failed requests refused or broken
   * @param requestsPerSecond completed requests over the span from the first send to the last answer
   */
  record Result(double[] ttft, double[] e2e, int completed, int failed, double requestsPerSecond) {
    double ttftPercentile(double p) {
      return percentile(ttft, p);
    }

    static double percentile(double[] values, double p) {
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      double rank = p / 100.0 * (sorted.length - 1);
      int lo = (int) Math.floor(rank);
      int hi = Math.min(sorted.length - 1, lo + 1);
      return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
    }
  }

  private record Sample(long sent, long first, long last, boolean ok) {
  }

  private LiveReplay() {
  }

  /** Replays {@code workload} against {@code baseUrl} (the gateway), with {@code headers} on every request. */
  static Result run(String baseUrl, Workload workload, RequestBodies bodies, List<String> headers)
      throws InterruptedException {
    HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5)).build();
    List<Sample> samples = java.util.Collections.synchronizedList(new ArrayList<>());
    long start = System.nanoTime() + 200_000_000L;
    try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
      for (Iterator<PlannedRequest> it = workload.requests(); it.hasNext(); ) {
        PlannedRequest r = it.next();
        long at = start + r.arrivalNanos();
        for (long wait = at - System.nanoTime(); wait > 0; wait = at - System.nanoTime()) {
          LockSupport.parkNanos(wait);
        }
        byte[] body = bodies.body(r);
        clients.submit(() -> samples.add(send(http, baseUrl, body, headers)));
      }
      clients.shutdown();
      if (!clients.awaitTermination(10, TimeUnit.MINUTES)) {
        throw new IllegalStateException("live replay: requests still running after 10 minutes");
      }
    }
    List<Sample> ok = samples.stream().filter(Sample::ok).toList();
    double[] ttft = ok.stream().mapToDouble(s -> (s.first - s.sent) / 1e9).toArray();
    double[] e2e = ok.stream().mapToDouble(s -> (s.last - s.sent) / 1e9).toArray();
    long first = ok.stream().mapToLong(Sample::sent).min().orElse(0);
    long last = ok.stream().mapToLong(Sample::last).max().orElse(0);
    double span = (last - first) / 1e9;
    return new Result(ttft, e2e, ok.size(), samples.size() - ok.size(), span > 0 ? ok.size() / span : 0);
  }

  private static Sample send(HttpClient http, String baseUrl, byte[] body, List<String> headers) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(baseUrl + RequestBodies.PATH))
        .timeout(Duration.ofMinutes(5)).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    for (int i = 0; i + 1 < headers.size(); i += 2) {
      b.header(headers.get(i), headers.get(i + 1));
    }
    long sent = System.nanoTime();
    long first = -1;
    long last = -1;
    try {
      HttpResponse<InputStream> resp = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
      if (resp.statusCode() != 200) {
        resp.body().close();
        return new Sample(sent, -1, -1, false);
      }
      try (BufferedReader in = new BufferedReader(new InputStreamReader(resp.body(), StandardCharsets.UTF_8))) {
        for (String line; (line = in.readLine()) != null; ) {
          if (line.startsWith("data:") && line.contains("\"text\"")) {
            long now = System.nanoTime();
            if (first < 0) {
              first = now;
            }
            last = now;
          }
        }
      }
    } catch (java.io.IOException | InterruptedException e) {
      return new Sample(sent, -1, -1, false);
    }
    return new Sample(sent, first, last, first >= 0);
  }
}
