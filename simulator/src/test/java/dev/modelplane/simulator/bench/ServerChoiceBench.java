package dev.modelplane.simulator.bench;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.PoolOptions;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The measurement behind the simulator's HTTP stack (docs/simulator.md): the simulator's shape — one engine thread
 * that produces a token for every open stream each step — served by (a) Vert.x 5 and (b) the JDK HttpServer on
 * virtual threads, driven by the same Vert.x client on loopback. Reports event lateness (arrival − the step's
 * time) and process CPU. Not a test: {@code java … ServerChoiceBench [streams] [events] [stepMillis]}.
 */
public final class ServerChoiceBench {
  private static final String HEAD = "data: {\"id\":\"chatcmpl-x\",\"object\":\"chat.completion.chunk\",\"choices\":"
      + "[{\"index\":0,\"delta\":{\"content\":\"token \"},\"finish_reason\":null}],\"t\":";

  interface Server extends AutoCloseable {
    int port();

    /** Delivers one event (the step's nanoTime) to every open stream; returns the number of streams. */
    int step(long nanos, boolean last);

    @Override
    void close();
  }

  public static void main(String[] args) throws Exception {
    int streams = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
    int events = args.length > 1 ? Integer.parseInt(args[1]) : 40;
    int stepMillis = args.length > 2 ? Integer.parseInt(args[2]) : 50;
    Vertx clientVertx = Vertx.vertx();
    for (String kind : List.of("vertx", "virtual-threads", "vertx", "virtual-threads", "vertx", "virtual-threads")) {
      try (Server server = "vertx".equals(kind) ? vertxServer() : jdkServer()) {
        run(kind, server, clientVertx, streams, events, stepMillis);
      }
      System.gc();
      Thread.sleep(500);
    }
    clientVertx.close().await();
  }

  static void run(String kind, Server server, Vertx vertx, int streams, int events, int stepMillis)
      throws Exception {
    HttpClient client = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(server.port()), new PoolOptions().setHttp1MaxSize(streams + 10));
    long[] lateness = new long[streams * events + 16];
    java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
    CountDownLatch opened = new CountDownLatch(streams);
    CountDownLatch done = new CountDownLatch(streams);
    for (int i = 0; i < streams; i++) {
      client.request(HttpMethod.GET, "/stream").compose(req -> req.send()).onSuccess(resp -> {
        opened.countDown();
        StringBuilder buf = new StringBuilder();
        resp.handler(b -> {
          long now = System.nanoTime();
          buf.append(b.toString(StandardCharsets.UTF_8));
          int at;
          while ((at = buf.indexOf("\n\n")) >= 0) {
            String ev = buf.substring(0, at);
            buf.delete(0, at + 2);
            int t = ev.lastIndexOf("\"t\":");
            if (t >= 0) {
              int k = count.getAndIncrement();
              if (k < lateness.length) {
                lateness[k] = now - Long.parseLong(ev.substring(t + 4, ev.length() - 1));
              }
            }
          }
        });
        resp.endHandler(v -> done.countDown());
      }).onFailure(e -> {
        opened.countDown();
        done.countDown();
      });
    }
    opened.await(60, TimeUnit.SECONDS);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long wall0 = System.nanoTime();
    int threads0 = Thread.activeCount();
    long next = System.nanoTime();
    int open = 0;
    for (int e = 0; e < events; e++) {
      next += stepMillis * 1_000_000L;
      long sleep = next - System.nanoTime();
      if (sleep > 0) {
        Thread.sleep(sleep / 1_000_000, (int) (sleep % 1_000_000));
      }
      open = server.step(next, e == events - 1);
    }
    done.await(60, TimeUnit.SECONDS);
    long cpu = os.getProcessCpuTime() - cpu0;
    long wall = System.nanoTime() - wall0;
    long[] l = java.util.Arrays.copyOf(lateness, Math.min(count.get(), lateness.length));
    java.util.Arrays.sort(l);
    System.out.printf("%-16s streams=%d events=%d (expected %d) lateness p50=%.2fms p90=%.2fms p99=%.2fms "
            + "max=%.1fms cpu=%.2fs over %.2fs wall (%.0f%% of one core) platform-threads=%d%n", kind, open, l.length,
        (long) streams * events, pct(l, 50), pct(l, 90), pct(l, 99), l.length == 0 ? 0 : l[l.length - 1] / 1e6,
        cpu / 1e9, wall / 1e9, 100.0 * cpu / wall, threads0);
    client.close().await();
  }

  static double pct(long[] sorted, int p) {
    return sorted.length == 0 ? 0 : sorted[Math.min(sorted.length - 1, sorted.length * p / 100)] / 1e6;
  }

  static String event(long nanos) {
    return HEAD + nanos + "}\n\n";
  }

  static Server vertxServer() {
    Vertx vertx = Vertx.vertx();
    record Open(HttpServerResponse resp, Context ctx) {
    }
    List<Open> open = new CopyOnWriteArrayList<>();
    var server = vertx.createHttpServer().requestHandler(req -> {
      HttpServerResponse resp = req.response().setChunked(true).putHeader("content-type", "text/event-stream");
      resp.writeHead();
      open.add(new Open(resp, vertx.getOrCreateContext()));
    }).listen(0, "127.0.0.1").await();
    return new Server() {
      public int port() {
        return server.actualPort();
      }

      public int step(long nanos, boolean last) {
        String ev = event(nanos);
        for (Open o : open) {
          o.ctx().runOnContext(v -> {
            if (last) {
              o.resp().end(ev);
            } else {
              o.resp().write(ev);
            }
          });
        }
        return open.size();
      }

      public void close() {
        server.close().await();
        vertx.close().await();
      }
    };
  }

  static Server jdkServer() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 4096);
    List<BlockingQueue<String>> open = new CopyOnWriteArrayList<>();
    server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
    server.createContext("/stream", ex -> {
      BlockingQueue<String> q = new ArrayBlockingQueue<>(1024);
      ex.getResponseHeaders().add("content-type", "text/event-stream");
      ex.sendResponseHeaders(200, 0);
      open.add(q);
      try (OutputStream out = ex.getResponseBody()) {
        while (true) {
          String ev = q.take();
          if (ev.isEmpty()) {
            break;
          }
          out.write(ev.getBytes(StandardCharsets.UTF_8));
          out.flush();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    });
    server.start();
    return new Server() {
      public int port() {
        return server.getAddress().getPort();
      }

      public int step(long nanos, boolean last) {
        String ev = event(nanos);
        for (BlockingQueue<String> q : open) {
          q.offer(ev);
          if (last) {
            q.offer("");
          }
        }
        return open.size();
      }

      public void close() {
        server.stop(0);
      }
    };
  }

  private ServerChoiceBench() {
  }

}
