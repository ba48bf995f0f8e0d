package dev.modelplane.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A Hugging Face Hub look-alike on 127.0.0.1 for tests: the revision, tree (paged with {@code Link}) and resolve
 * endpoints with {@code Range}, {@code X-Repo-Commit}, {@code ETag}, {@code X-Error-Code}; optional token check
 * (gated or private); LFS files answered with a redirect to a second server (another origin, like the CDN);
 * switches for misbehaviour: ignore ranges, drop the connection mid-file, stall, fail with a status, corrupt bytes;
 * a bandwidth limit for large files, so a test can watch a download's progress or interrupt it. Records every
 * request. The switches are fields a test sets before or between requests.
 */
public final class FakeHub implements AutoCloseable {
  public static final String REPO = "org/model";
  public static final String REVISION = "main";
  public static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";
  private static final int CHUNK = 64 * 1024;

  /** One request as the server saw it: {@code server} is {@code hub} or {@code cdn}. */
  public record Seen(String server, String method, String path, String query, String range, String authorization) {
  }

  private record HubFile(byte[] content, boolean lfs) {
  }

  /** How a file's next response misbehaves. */
  public enum Fault { DROP_MIDWAY, STALL, EXTRA_BYTES }

  private final HttpServer hub;
  private final HttpServer cdn;
  private final java.util.concurrent.ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, HubFile> files = Collections.synchronizedMap(new LinkedHashMap<>());
  public final List<Seen> requests = new CopyOnWriteArrayList<>();
  private final Map<String, List<Fault>> faults = new ConcurrentHashMap<>();
  private final Map<String, byte[]> served = new ConcurrentHashMap<>();
  private final AtomicInteger failures = new AtomicInteger();
  private volatile int failStatus = 503;
  /** The bearer token every request must carry (none when null). */
  public volatile String token;
  /** Whether a request without the token is told the repository does not exist (else that it is gated). */
  public volatile boolean privateRepo;
  public volatile boolean ignoreRange;
  /** Whether LFS files are answered with a redirect to the CDN (else served by the hub itself). */
  public volatile boolean redirectLfs = true;
  public volatile int pageSize = 1000;
  /** Bytes sent before a {@link Fault#DROP_MIDWAY} or {@link Fault#STALL}. */
  public volatile long dropAfter = 64 * 1024;
  public volatile long stallMillis = 10_000;
  /** Every hub request is redirected here when set. */
  public volatile String redirectTo;
  /** Where the tree's next-page links point: the hub itself unless set (e.g. to the CDN, another origin). */
  public volatile URI nextPageOrigin;
  /** Files larger than {@link #slowAbove} bytes are sent at this many bytes per second (0: unlimited). */
  public volatile long bytesPerSecond;
  public volatile long slowAbove = 1024 * 1024;

  public FakeHub() throws IOException {
    hub = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    cdn = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    hub.createContext("/", e -> handle("hub", e));
    cdn.createContext("/", e -> handle("cdn", e));
    hub.setExecutor(threads);
    cdn.setExecutor(threads);
    hub.start();
    cdn.start();
  }

  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + hub.getAddress().getPort());
  }

  public URI cdnEndpoint() {
    return URI.create("http://127.0.0.1:" + cdn.getAddress().getPort());
  }

  /** Adds a file to the repository; an LFS file's listing carries its SHA-256. */
  public FakeHub file(String path, byte[] content, boolean lfs) {
    files.put(path, new HubFile(content, lfs));
    return this;
  }

  /** Serves other bytes for {@code path} than the listing's size and SHA-256 announce. */
  public void serveInstead(String path, byte[] content) {
    served.put(path, content);
  }

  /** The next responses for {@code path} misbehave, one fault per response, in order. */
  public void faults(String path, Fault... next) {
    faults.computeIfAbsent(path, p -> new CopyOnWriteArrayList<>()).addAll(List.of(next));
  }

  /** The next {@code count} requests (of any kind) answer {@code status}. */
  public void failNext(int count, int status) {
    failStatus = status;
    failures.set(count);
  }

  /** The requests for the file {@code path}: at the hub's resolve endpoint and at the CDN. */
  public List<Seen> fileRequests(String path) {
    return requests.stream().filter(r -> r.path().endsWith("/" + path)
        && (r.path().contains("/resolve/") || r.server().equals("cdn"))).toList();
  }

  /** The SHA-256 the listing announces for an LFS file, lower-case hex. */
  public static String sha256(byte[] content) {
    return Sha256.hex(content);
  }

  private void handle(String server, HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getRawPath();
      requests.add(new Seen(server, exchange.getRequestMethod(), path, exchange.getRequestURI().getRawQuery(),
          exchange.getRequestHeaders().getFirst("Range"), exchange.getRequestHeaders().getFirst("Authorization")));
      if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        exchange.sendResponseHeaders(failStatus, -1);
        return;
      }
      if (server.equals("cdn") && path.startsWith("/cdn/")) {
        serveFile(exchange, URI.create(path).getPath().substring("/cdn/".length()));
        return;
      }
      if (redirectTo != null) {
        exchange.getResponseHeaders().set("Location", redirectTo);
        exchange.sendResponseHeaders(302, -1);
        return;
      }
      String api = "/api/models/" + REPO + "/";
      String resolve = "/" + REPO + "/resolve/";
      if (!path.startsWith(api) && !path.startsWith(resolve)) {
        error(exchange, 404, "RepoNotFound");
      } else if (!authorized(exchange)) {
        return;
      } else if (path.equals(api + "revision/" + REVISION) || path.equals(api + "revision/" + COMMIT)) {
        json(exchange, "{\"id\":\"" + REPO + "\",\"sha\":\"" + COMMIT + "\",\"private\":" + privateRepo + "}", null);
      } else if (path.startsWith(api + "revision/")) {
        error(exchange, 404, "RevisionNotFound");
      } else if (path.equals(api + "tree/" + COMMIT)) {
        tree(exchange);
      } else if (path.startsWith(resolve + COMMIT + "/")) {
        String name = URI.create(path).getPath().substring((resolve + COMMIT + "/").length());
        HubFile file = files.get(name);
        if (file == null) {
          error(exchange, 404, "EntryNotFound");
        } else if (file.lfs() && redirectLfs) {
          exchange.getResponseHeaders().set("Location", cdnEndpoint() + "/cdn/" + name
              + "?X-Amz-Signature=signed-url-secret");
          exchange.getResponseHeaders().set("X-Linked-Size", Long.toString(file.content().length));
          exchange.getResponseHeaders().set("X-Linked-Etag", "\"" + sha256(file.content()) + "\"");
          exchange.getResponseHeaders().set("X-Repo-Commit", COMMIT);
          exchange.sendResponseHeaders(302, -1);
        } else {
          serveFile(exchange, name);
        }
      } else {
        error(exchange, 404, "RevisionNotFound");
      }
    }
  }

  private boolean authorized(HttpExchange exchange) throws IOException {
    if (token == null) {
      return true;
    }
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    if (("Bearer " + token).equals(auth)) {
      return true;
    }
    if (privateRepo) {
      error(exchange, 401, "RepoNotFound");
    } else {
      error(exchange, auth == null ? 401 : 403, "GatedRepo");
    }
    return false;
  }

  private void tree(HttpExchange exchange) throws IOException {
    String query = exchange.getRequestURI().getRawQuery();
    if (query == null || !query.contains("recursive=true")) {
      error(exchange, 400, "");
      return;
    }
    int cursor = query.contains("cursor=") ? Integer.parseInt(query.replaceAll(".*cursor=(\\d+).*", "$1")) : 0;
    List<Map.Entry<String, HubFile>> all;
    synchronized (files) {
      all = new ArrayList<>(files.entrySet());
    }
    StringBuilder body = new StringBuilder("[");
    int end = Math.min(all.size(), cursor + pageSize);
    if (cursor == 0) {
      body.append("{\"type\":\"directory\",\"oid\":\"d0\",\"size\":0,\"path\":\"sub\"}");
    }
    for (int i = cursor; i < end; i++) {
      Map.Entry<String, HubFile> e = all.get(i);
      byte[] content = e.getValue().content();
      body.append(body.length() > 1 ? "," : "").append("{\"type\":\"file\",\"oid\":\"")
          .append(sha256(content).substring(0, 40)).append("\",\"size\":").append(content.length)
          .append(",\"path\":\"").append(e.getKey()).append('"');
      if (e.getValue().lfs()) {
        body.append(",\"lfs\":{\"oid\":\"").append(sha256(content)).append("\",\"size\":").append(content.length)
            .append(",\"pointerSize\":134}");
      }
      body.append('}');
    }
    body.append(']');
    URI origin = nextPageOrigin == null ? endpoint() : nextPageOrigin;
    String link = end < all.size() ? "<" + origin + "/api/models/" + REPO + "/tree/" + COMMIT
        + "?recursive=true&cursor=" + end + ">; rel=\"next\"" : null;
    json(exchange, body.toString(), link);
  }

  private void serveFile(HttpExchange exchange, String name) throws IOException {
    HubFile file = files.get(name);
    byte[] content = served.getOrDefault(name, file.content());
    List<Fault> pending = faults.getOrDefault(name, List.of());
    Fault fault = pending.isEmpty() ? null : pending.remove(0);
    long start = 0;
    String range = exchange.getRequestHeaders().getFirst("Range");
    int status = 200;
    if (range != null && !ignoreRange) {
      start = Long.parseLong(range.replaceAll("bytes=(\\d+)-.*", "$1"));
      status = 206;
      exchange.getResponseHeaders().set("Content-Range", "bytes " + start + "-" + (content.length - 1) + "/"
          + content.length);
    }
    exchange.getResponseHeaders().set("ETag", "\"" + (file.lfs() ? sha256(file.content()) : "git-oid") + "\"");
    exchange.getResponseHeaders().set("X-Repo-Commit", COMMIT);
    exchange.getResponseHeaders().set("Accept-Ranges", "bytes");
    long length = content.length - start;
    if (fault == Fault.EXTRA_BYTES) {
      exchange.sendResponseHeaders(status, length + 10);
      OutputStream out = exchange.getResponseBody();
      out.write(content, (int) start, (int) length);
      out.write(new byte[10]);
      return;
    }
    exchange.sendResponseHeaders(status, length);
    OutputStream out = exchange.getResponseBody();
    if (fault == Fault.DROP_MIDWAY) {
      out.write(content, (int) start, (int) Math.min(dropAfter, length));
      out.flush();
      sleep(50);
      throw new IOException("dropping the connection on purpose"); // the server closes it short of Content-Length
    }
    if (fault == Fault.STALL) {
      out.write(content, (int) start, (int) Math.min(dropAfter, length));
      out.flush();
      sleep(stallMillis);
      throw new IOException("stalled on purpose");
    }
    long rate = content.length > slowAbove ? bytesPerSecond : 0;
    for (int at = (int) start; at < content.length; at += CHUNK) {
      int n = Math.min(CHUNK, content.length - at);
      out.write(content, at, n);
      if (rate > 0) {
        out.flush();
        sleep(n * 1000L / rate);
        if (Thread.currentThread().isInterrupted()) {
          throw new IOException("closed while sending " + name);
        }
      }
    }
  }

  private static void error(HttpExchange exchange, int status, String code) throws IOException {
    if (!code.isEmpty()) {
      exchange.getResponseHeaders().set("X-Error-Code", code);
    }
    byte[] body = ("{\"error\":\"" + code + "\"}").getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }

  private static void json(HttpExchange exchange, String body, String link) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    if (link != null) {
      exchange.getResponseHeaders().set("Link", link);
    }
    exchange.sendResponseHeaders(200, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    threads.shutdownNow(); // wakes handlers that stall on purpose
    hub.stop(0);
    cdn.stop(0);
  }
}
