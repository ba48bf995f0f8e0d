package dev.modelplane.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.modelplane.operator.modelsource.fetch.SigV4Signer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A Hugging Face Hub look-alike on 127.0.0.1 serving one repository ({@value #REPO}) at one commit: the revision,
 * tree and resolve endpoints with {@code Range}, an optional bearer token, and a bandwidth limit for files above a
 * size so a test can watch progress and interrupt a download. Records every file request with its range.
 */
final class AgentHubServer implements AutoCloseable {
  static final String REPO = "org/model";
  static final String COMMIT = "0123456789abcdef0123456789abcdef01234567";
  private static final int CHUNK = 64 * 1024;

  /** One file request: the path and the {@code Range} header (null without one). */
  record FileRequest(String path, String range) {
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, byte[]> files = new LinkedHashMap<>();
  final List<FileRequest> fileRequests = new CopyOnWriteArrayList<>();
  final List<String> authorizations = new CopyOnWriteArrayList<>();
  volatile String token;
  /** Files larger than {@link #slowAbove} are sent at this many bytes per second (0 = unlimited). */
  volatile long bytesPerSecond;
  volatile long slowAbove = 1024 * 1024;

  AgentHubServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.setExecutor(threads);
    server.start();
  }

  URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  synchronized AgentHubServer file(String path, byte[] content) {
    files.put(path, content);
    return this;
  }

  List<FileRequest> requestsFor(String path) {
    return fileRequests.stream().filter(r -> r.path().equals(path)).toList();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String auth = exchange.getRequestHeaders().getFirst("Authorization");
      authorizations.add(String.valueOf(auth));
      if (token != null && !("Bearer " + token).equals(auth)) {
        send(exchange, 401, "{\"error\":\"GatedRepo\"}");
        return;
      }
      String api = "/api/models/" + REPO + "/";
      String resolve = "/" + REPO + "/resolve/" + COMMIT + "/";
      if (path.equals(api + "revision/main")) {
        send(exchange, 200, "{\"id\":\"" + REPO + "\",\"sha\":\"" + COMMIT + "\"}");
      } else if (path.equals(api + "tree/" + COMMIT)) {
        send(exchange, 200, tree());
      } else if (path.startsWith(resolve)) {
        serveFile(exchange, path.substring(resolve.length()));
      } else {
        send(exchange, 404, "{\"error\":\"RepoNotFound\"}");
      }
    }
  }

  private synchronized String tree() {
    StringBuilder body = new StringBuilder("[");
    files.forEach((name, content) -> {
      String sha = SigV4Signer.sha256Hex(content);
      body.append(body.length() > 1 ? "," : "").append("{\"type\":\"file\",\"oid\":\"").append(sha, 0, 40)
          .append("\",\"size\":").append(content.length).append(",\"path\":\"").append(name).append('"');
      if (!name.endsWith(".json")) {
        body.append(",\"lfs\":{\"oid\":\"").append(sha).append("\",\"size\":").append(content.length).append('}');
      }
      body.append('}');
    });
    return body.append(']').toString();
  }

  private void serveFile(HttpExchange exchange, String name) throws IOException {
    byte[] content;
    synchronized (this) {
      content = files.get(name);
    }
    String range = exchange.getRequestHeaders().getFirst("Range");
    fileRequests.add(new FileRequest(name, range));
    if (content == null) {
      send(exchange, 404, "{\"error\":\"EntryNotFound\"}");
      return;
    }
    int start = 0;
    int status = 200;
    if (range != null) {
      start = Integer.parseInt(range.replaceAll("bytes=(\\d+)-.*", "$1"));
      status = 206;
      exchange.getResponseHeaders().set("Content-Range", "bytes " + start + "-" + (content.length - 1) + "/"
          + content.length);
    }
    exchange.getResponseHeaders().set("Accept-Ranges", "bytes");
    exchange.sendResponseHeaders(status, content.length - start);
    OutputStream out = exchange.getResponseBody();
    long rate = content.length > slowAbove ? bytesPerSecond : 0;
    for (int at = start; at < content.length; at += CHUNK) {
      int n = Math.min(CHUNK, content.length - at);
      out.write(content, at, n);
      out.flush();
      if (rate > 0) {
        sleep(n * 1000L / rate);
      }
    }
  }

  private static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  private static void sleep(long millis) throws IOException {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
