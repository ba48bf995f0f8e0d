package dev.modelplane.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * GitHub's release API as a model store, on two 127.0.0.1 servers: the REST API ({@code /repos/{owner}/{repo}/
 * releases/latest}, {@code /releases/tags/{tag}}, {@code /releases/{id}/assets} paged with {@code Link}, and each
 * asset's API URL, which answers {@code Accept: application/octet-stream} with a 302 to the second server) and a
 * "CDN" of another origin serving the bytes with {@code Range}. Assets carry {@code digest: "sha256:<hex>"}. When
 * {@link #token} is set, API requests must send it as {@code Authorization: Bearer} (a wrong one: 401 {@code Bad
 * credentials}; none: 404, as for a private repository); the CDN checks a signature in its URL instead and records
 * whether a token reached it. {@link #rateLimited} makes the API answer 403 with {@code x-ratelimit-remaining: 0}.
 *
 * <p>As a {@link TestModelStore}, files live in the repository {@value #OWNER}/{@value #REPO}: a prefix is a release
 * whose tag is the prefix with {@code /} replaced by {@code -}, created on the first {@link #put}; the newest release
 * created is {@code latest}. Release assets have flat names, so {@code put} refuses a path containing {@code /}.
 */
public final class GitHubReleasesServer implements TestModelStore {
  public static final String OWNER = "modelplane";
  public static final String REPO = "models";
  public static final String TOKEN = "ghp_modelplaneTestToken0123456789";
  private static final Pattern RELEASE = Pattern.compile("/repos/([^/]+)/([^/]+)/releases/(latest|tags/(.+))");
  private static final Pattern ASSETS = Pattern.compile("/repos/([^/]+)/([^/]+)/releases/(\\d+)/assets");
  private static final Pattern ASSET = Pattern.compile("/repos/([^/]+)/([^/]+)/releases/assets/(\\d+)");
  private static final Pattern BLOB = Pattern.compile("/blob/(\\d+)");

  /** One request as a server saw it: {@code server} is {@code api} or {@code cdn}. */
  public record Seen(String server, String path, String query, String range, String authorization,
      String apiVersion) {
  }

  private record Asset(long id, String name, byte[] content, String digest) {
  }

  private record Release(long id, String tag, List<Asset> assets) {
  }

  private final HttpServer api;
  private final HttpServer cdn;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final Map<String, Release> releases = new ConcurrentHashMap<>();
  private final Map<Long, Asset> assets = new ConcurrentHashMap<>();
  private final AtomicLong ids = new AtomicLong(1000);
  private volatile String latest;
  private volatile long bytesPerSecond;
  public final List<Seen> requests = new CopyOnWriteArrayList<>();
  /** The token API requests must carry; null for none (anonymous). */
  public volatile String token = TOKEN;
  /** Whether the API answers every request as over the rate limit. */
  public volatile boolean rateLimited;
  /** Whether asset entries leave out {@code digest}, as releases published before GitHub computed digests do. */
  public volatile boolean withoutDigests;

  public GitHubReleasesServer() throws IOException {
    api = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    cdn = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    api.setExecutor(threads);
    cdn.setExecutor(threads);
    api.createContext("/", e -> handle(e, this::api));
    cdn.createContext("/", e -> handle(e, this::cdn));
    api.start();
    cdn.start();
  }

  /** {@code http://127.0.0.1:<port>}: the API, what {@code storage.parameters.endpoint} names. */
  public String apiEndpoint() {
    return "http://127.0.0.1:" + api.getAddress().getPort();
  }

  /** The release tag a prefix maps to. */
  public static String tag(String prefix) {
    return prefix.replace('/', '-');
  }

  @Override
  public String scheme() {
    return "github";
  }

  /** {@code github://modelplane/models@<prefix with '/' as '-'>}. */
  @Override
  public String storageUri(String prefix) {
    return "github://" + OWNER + "/" + REPO + "@" + tag(prefix);
  }

  @Override
  public Map<String, String> parameters() {
    return Map.of("endpoint", apiEndpoint());
  }

  @Override
  public Map<String, String> secretData() {
    String t = token;
    return t == null ? Map.of() : Map.of("GITHUB_TOKEN", t);
  }

  @Override
  public void put(String prefix, String path, byte[] data) {
    putWithWrongChecksum(prefix, path, data, data);
  }

  @Override
  public synchronized void putWithWrongChecksum(String prefix, String path, byte[] data, byte[] announcedAs) {
    if (path.contains("/")) {
      throw new IllegalArgumentException("release assets have flat names; '" + path + "' has a '/'");
    }
    String tag = tag(prefix);
    Release release = releases.get(tag);
    if (release == null) {
      release = new Release(ids.incrementAndGet(), tag, new CopyOnWriteArrayList<>());
      releases.put(tag, release);
      latest = tag;
    }
    release.assets().removeIf(a -> a.name().equals(path));
    Asset asset = new Asset(ids.incrementAndGet(), path, data.clone(), "sha256:" + Sha256.hex(announcedAs));
    release.assets().add(asset);
    assets.put(asset.id(), asset);
  }

  @Override
  public void throttle(long bytesPerSecond) {
    this.bytesPerSecond = bytesPerSecond;
  }

  private interface Handler {
    void handle(HttpExchange exchange) throws IOException, InterruptedException;
  }

  private void handle(HttpExchange exchange, Handler handler) throws IOException {
    try (exchange) {
      requests.add(new Seen(exchange.getHttpContext().getServer() == api ? "api" : "cdn",
          exchange.getRequestURI().getPath(), exchange.getRequestURI().getRawQuery(),
          exchange.getRequestHeaders().getFirst("Range"), exchange.getRequestHeaders().getFirst("Authorization"),
          exchange.getRequestHeaders().getFirst("X-GitHub-Api-Version")));
      handler.handle(exchange);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away
    }
  }

  private void api(HttpExchange exchange) throws IOException {
    String path = exchange.getRequestURI().getPath();
    String auth = exchange.getRequestHeaders().getFirst("Authorization");
    String expected = token;
    if (rateLimited) {
      exchange.getResponseHeaders().set("x-ratelimit-remaining", "0");
      exchange.getResponseHeaders().set("x-ratelimit-reset", "1767225600");
      json(exchange, 403, "{\"message\":\"API rate limit exceeded for 127.0.0.1.\"}");
      return;
    }
    if (expected != null && auth != null && !auth.equals("Bearer " + expected)) {
      json(exchange, 401, "{\"message\":\"Bad credentials\"}");
      return;
    }
    Matcher m;
    boolean repoKnown = (m = Pattern.compile("/repos/([^/]+)/([^/]+)/").matcher(path)).lookingAt()
        && m.group(1).equals(OWNER) && m.group(2).equals(REPO) && (expected == null || auth != null);
    if (!repoKnown) {
      json(exchange, 404, "{\"message\":\"Not Found\"}");
    } else if ((m = RELEASE.matcher(path)).matches()) {
      Release release = releases.get(m.group(3).equals("latest") ? String.valueOf(latest) : m.group(4));
      if (release == null) {
        json(exchange, 404, "{\"message\":\"Not Found\"}");
      } else {
        json(exchange, 200, "{\"id\":" + release.id() + ",\"tag_name\":\"" + release.tag() + "\",\"name\":\""
            + release.tag() + "\",\"draft\":false,\"prerelease\":false,\"assets\":[]}");
      }
    } else if ((m = ASSETS.matcher(path)).matches()) {
      assetPage(exchange, Long.parseLong(m.group(3)));
    } else if ((m = ASSET.matcher(path)).matches() && assets.containsKey(Long.parseLong(m.group(3)))
        && "application/octet-stream".equals(exchange.getRequestHeaders().getFirst("Accept"))) {
      exchange.getResponseHeaders().set("Location", "http://127.0.0.1:" + cdn.getAddress().getPort() + "/blob/"
          + m.group(3) + "?sig=" + Sha256.hex(("signed" + m.group(3)).getBytes(StandardCharsets.UTF_8)));
      exchange.sendResponseHeaders(302, -1);
    } else {
      json(exchange, 404, "{\"message\":\"Not Found\"}");
    }
  }

  private void assetPage(HttpExchange exchange, long releaseId) throws IOException {
    Optional<Release> release = releases.values().stream().filter(r -> r.id() == releaseId).findFirst();
    if (release.isEmpty()) {
      json(exchange, 404, "{\"message\":\"Not Found\"}");
      return;
    }
    String query = Optional.ofNullable(exchange.getRequestURI().getQuery()).orElse("");
    int perPage = intParam(query, "per_page", 30);
    int page = intParam(query, "page", 1);
    List<Asset> all = release.get().assets();
    List<String> entries = new ArrayList<>();
    for (int i = (page - 1) * perPage; i < Math.min(all.size(), page * perPage); i++) {
      Asset a = all.get(i);
      entries.add("{\"id\":" + a.id() + ",\"name\":\"" + escape(a.name()) + "\",\"size\":" + a.content().length
          + ",\"state\":\"uploaded\",\"content_type\":\"application/octet-stream\",\"url\":\"" + apiEndpoint()
          + "/repos/" + OWNER + "/" + REPO + "/releases/assets/" + a.id() + "\""
          + (withoutDigests ? "" : ",\"digest\":\"" + a.digest() + "\"") + "}");
    }
    if (page * perPage < all.size()) {
      exchange.getResponseHeaders().set("Link", "<" + apiEndpoint() + exchange.getRequestURI().getPath()
          + "?per_page=" + perPage + "&page=" + (page + 1) + ">; rel=\"next\"");
    }
    json(exchange, 200, "[" + String.join(",", entries) + "]");
  }

  private void cdn(HttpExchange exchange) throws IOException, InterruptedException {
    Matcher m = BLOB.matcher(exchange.getRequestURI().getPath());
    Asset asset = m.matches() ? assets.get(Long.parseLong(m.group(1))) : null;
    String sig = asset == null ? "" : Sha256.hex(("signed" + asset.id()).getBytes(StandardCharsets.UTF_8));
    if (asset == null || !("sig=" + sig).equals(exchange.getRequestURI().getRawQuery())) {
      json(exchange, 403, "{\"message\":\"Signature mismatch\"}");
      return;
    }
    byte[] content = asset.content();
    long start = 0;
    String range = exchange.getRequestHeaders().getFirst("Range");
    if (range != null && range.matches("bytes=\\d+-")) {
      start = Long.parseLong(range.substring(6, range.length() - 1));
      if (start >= content.length) {
        exchange.getResponseHeaders().set("Content-Range", "bytes */" + content.length);
        exchange.sendResponseHeaders(416, -1);
        return;
      }
      exchange.getResponseHeaders().set("Content-Range", "bytes " + start + "-" + (content.length - 1) + "/"
          + content.length);
    }
    exchange.getResponseHeaders().set("Content-Type", "application/octet-stream");
    exchange.sendResponseHeaders(range != null ? 206 : 200, content.length - start);
    OutputStream out = exchange.getResponseBody();
    for (int at = (int) start; at < content.length; ) {
      long rate = bytesPerSecond;
      int step = rate > 0 ? (int) Math.min(content.length - at, Math.max(1, rate / 20)) : content.length - at;
      out.write(content, at, step);
      out.flush();
      at += step;
      if (rate > 0) {
        Thread.sleep(Math.max(1, step * 1000L / rate));
      }
    }
  }

  private static int intParam(String query, String name, int fallback) {
    Matcher m = Pattern.compile("(?:^|&)" + name + "=(\\d{1,4})").matcher(query);
    return m.find() ? Math.max(1, Integer.parseInt(m.group(1))) : fallback;
  }

  private static String escape(String text) {
    return text.replace("\\", "\\\\").replace("\"", "\\\"");
  }

  private static void json(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
  }

  @Override
  public void close() {
    api.stop(0);
    cdn.stop(0);
    threads.shutdownNow();
  }
}
