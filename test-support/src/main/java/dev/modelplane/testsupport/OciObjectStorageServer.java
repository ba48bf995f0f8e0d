package dev.modelplane.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.PublicKey;
import java.time.Clock;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * An OCI Object Storage look-alike on 127.0.0.1 for tests (there is no OCI emulator): ListObjects with {@code prefix},
 * {@code start}, {@code limit} and {@code nextStartWith} (names sorted), {@code fields}; GetObject with {@code Range}
 * (206 and {@code Content-Range}, 416 past the end), {@code ETag} and {@code opc-content-md5} (or
 * {@code opc-multipart-md5}); HeadObject; OCI's JSON errors ({@code NotAuthenticated}, {@code NamespaceNotFound},
 * {@code BucketNotFound}, {@code ObjectNotFound}). Every request must carry a valid OCI signature
 * ({@link OciSignatureVerifier}) by the server's API key ({@link #key()}) or session token ({@link #SESSION_TOKEN},
 * same key pair). Objects are stored by Java calls; records every request as {@code METHOD raw-target}.
 */
public final class OciObjectStorageServer implements TestModelStore {
  public static final String NAMESPACE = "modelplane-test";
  public static final String BUCKET = "models";
  /** A session token the server accepts with its key pair ({@code keyId="ST$<token>"}). */
  public static final String SESSION_TOKEN = "eyJhbGciOiJub25lIn0.eyJzdWIiOiJtb2RlbHBsYW5lLXRlc3QifQ.";
  private static final int CHUNK = 16 * 1024;

  /** A stored object: its bytes, the MD5 it announces (base64) and whether that is a multipart MD5. */
  private record StoredObject(byte[] data, String md5, boolean multipart, String etag) {
  }

  private final HttpServer server;
  private final ExecutorService threads = Executors.newCachedThreadPool();
  private final OciTestKey key = OciTestKey.generate();
  private final Map<String, PublicKey> keys = new ConcurrentHashMap<>();
  private final Map<String, ConcurrentSkipListMap<String, StoredObject>> buckets = new ConcurrentHashMap<>();
  private final OciSignatureVerifier verifier = new OciSignatureVerifier(keys::get);
  /** Every request as {@code METHOD raw-target}, in order. */
  public final List<String> requests = new CopyOnWriteArrayList<>();
  private volatile long bytesPerSecond;
  /** The server's clock, for date-skew checks; tests may replace it. */
  public volatile Clock clock = Clock.systemUTC();

  private OciObjectStorageServer() throws IOException {
    keys.put(key.keyId(), key.keyPair().getPublic());
    keys.put("ST$" + SESSION_TOKEN, key.keyPair().getPublic());
    buckets.put(BUCKET, new ConcurrentSkipListMap<>());
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** A server with the namespace {@link #NAMESPACE} and the empty bucket {@link #BUCKET}. */
  public static OciObjectStorageServer start() throws IOException {
    return new OciObjectStorageServer();
  }

  /** {@code http://127.0.0.1:<port>}. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The API key the server accepts. */
  public OciTestKey key() {
    return key;
  }

  /** Adds an empty bucket. */
  public void createBucket(String name) {
    buckets.putIfAbsent(name, new ConcurrentSkipListMap<>());
  }

  /** Stores an object by its full name in a bucket, announcing its MD5. */
  public void putObject(String bucket, String name, byte[] data) {
    store(bucket, name, new StoredObject(data.clone(), md5(data), false, UUID.randomUUID().toString()));
  }

  /** Stores an object as a multipart upload of {@code parts} parts would be: its MD5 is {@code <md5>-<parts>}. */
  public void putMultipartObject(String bucket, String name, byte[] data, int parts) {
    store(bucket, name, new StoredObject(data.clone(), md5(data) + "-" + parts, true, UUID.randomUUID().toString()));
  }

  private void store(String bucket, String name, StoredObject object) {
    buckets.computeIfAbsent(bucket, b -> new ConcurrentSkipListMap<>()).put(name, object);
  }

  @Override
  public String scheme() {
    return "oci";
  }

  @Override
  public String storageUri(String prefix) {
    return "oci://n/" + NAMESPACE + "/b/" + BUCKET + "/o/" + prefix;
  }

  @Override
  public Map<String, String> parameters() {
    return Map.of("endpoint", endpoint().toString());
  }

  /** {@code tenancy}, {@code user}, {@code fingerprint} and {@code key}: the API key, as OCI's config names them. */
  @Override
  public Map<String, String> secretData() {
    return Map.of("tenancy", key.tenancy(), "user", key.user(), "fingerprint", key.fingerprint(), "key",
        key.privateKeyPem());
  }

  @Override
  public void put(String prefix, String path, byte[] data) {
    putObject(BUCKET, prefix + "/" + path, data);
  }

  @Override
  public void putWithWrongChecksum(String prefix, String path, byte[] data, byte[] announcedAs) {
    if (announcedAs.length != data.length) {
      throw new IllegalArgumentException("the announced content must be as long as the stored one");
    }
    store(BUCKET, prefix + "/" + path, new StoredObject(data.clone(), md5(announcedAs), false,
        UUID.randomUUID().toString()));
  }

  @Override
  public void throttle(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytes per second must not be negative: " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String target = exchange.getRequestURI().getRawPath() + (exchange.getRequestURI().getRawQuery() == null ? ""
          : "?" + exchange.getRequestURI().getRawQuery());
      requests.add(method + " " + target);
      Map<String, String> headers = new LinkedHashMap<>();
      exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), String.join(", ", v)));
      byte[] body = exchange.getRequestBody().readAllBytes();
      String problem = verifier.problem(method, target, headers, body, clock.instant());
      if (problem != null) {
        error(exchange, 401, "NotAuthenticated", problem);
        return;
      }
      String[] parts = exchange.getRequestURI().getRawPath().split("/", 7);
      // "", "n", ns, "b", bucket, "o"[, name]
      if (parts.length < 6 || !parts[1].equals("n") || !parts[3].equals("b") || !parts[5].equals("o")) {
        error(exchange, 404, "NotFound", "Not an Object Storage path");
        return;
      }
      if (!decode(parts[2]).equals(NAMESPACE)) {
        error(exchange, 404, "NamespaceNotFound", "You do not have authorization to perform this request, or the "
            + "requested resource could not be found.");
        return;
      }
      String bucket = decode(parts[4]);
      ConcurrentSkipListMap<String, StoredObject> objects = buckets.get(bucket);
      if (objects == null) {
        error(exchange, 404, "BucketNotFound", "Either the bucket named '" + bucket + "' does not exist in the "
            + "namespace '" + NAMESPACE + "' or you are not authorized to access it");
        return;
      }
      if (parts.length == 6) {
        if (!method.equals("GET")) {
          error(exchange, 405, "MethodNotAllowed", "Only GET lists objects here");
          return;
        }
        OciObjectListing.answer(exchange, objects.keySet(), name -> {
          StoredObject o = objects.get(name);
          return o == null ? null : new OciObjectListing.Summary(o.data.length, o.md5, o.etag);
        });
        return;
      }
      String name = decode(parts[6]);
      StoredObject object = objects.get(name);
      if (object == null) {
        error(exchange, 404, "ObjectNotFound", "The object '" + name + "' was not found in the bucket '" + bucket
            + "'");
        return;
      }
      if (!Set.of("GET", "HEAD").contains(method)) {
        error(exchange, 405, "MethodNotAllowed", "Objects are written by the test, not over HTTP");
        return;
      }
      serve(exchange, method, object);
    } catch (RuntimeException e) {
      error(exchange, 500, "InternalServerError", e.getClass().getSimpleName());
    }
  }

  private void serve(HttpExchange exchange, String method, StoredObject object) throws IOException {
    long size = object.data.length;
    long from = 0;
    String range = exchange.getRequestHeaders().getFirst("Range");
    var headers = exchange.getResponseHeaders();
    headers.set("ETag", object.etag);
    headers.set(object.multipart ? "opc-multipart-md5" : "opc-content-md5", object.md5);
    headers.set("Accept-Ranges", "bytes");
    int status = 200;
    long to = size - 1;
    if (range != null && range.startsWith("bytes=")) {
      String[] bounds = range.substring("bytes=".length()).split("-", 2);
      from = Long.parseLong(bounds[0].strip());
      if (bounds.length > 1 && !bounds[1].isBlank()) {
        to = Math.min(to, Long.parseLong(bounds[1].strip()));
      }
      if (from >= size) {
        headers.set("Content-Range", "bytes */" + size);
        error(exchange, 416, "InvalidRange", "The requested range is not satisfiable");
        return;
      }
      status = 206;
      headers.set("Content-Range", "bytes " + from + "-" + to + "/" + size);
    }
    long length = to - from + 1;
    if (method.equals("HEAD")) {
      headers.set("Content-Length", Long.toString(size));
      exchange.sendResponseHeaders(200, -1);
      return;
    }
    exchange.sendResponseHeaders(status, length == 0 ? -1 : length);
    try (OutputStream out = exchange.getResponseBody()) {
      for (long at = from; at <= to; ) {
        long rate = bytesPerSecond;
        int step = (int) Math.min(to - at + 1, rate > 0 ? Math.max(1, Math.min(CHUNK, rate / 20)) : CHUNK);
        out.write(object.data, (int) at, step);
        out.flush();
        at += step;
        if (rate > 0) {
          Thread.sleep(Math.max(1, step * 1000L / rate));
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (IOException e) {
      // the client went away mid-body (a cancelled or interrupted download)
    }
  }

  /** Sends OCI's JSON error body. */
  static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
    byte[] body = ("{\"code\":" + OciObjectListing.json(code) + ",\"message\":" + OciObjectListing.json(message)
        + "}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.getResponseHeaders().set("opc-request-id", UUID.randomUUID().toString());
    if (exchange.getRequestMethod().equals("HEAD")) {
      exchange.sendResponseHeaders(status, -1);
      return;
    }
    exchange.sendResponseHeaders(status, body.length);
    exchange.getResponseBody().write(body);
  }

  private static String decode(String segment) {
    return URLDecoder.decode(segment.replace("+", "%2B"), StandardCharsets.UTF_8);
  }

  private static String md5(byte[] data) {
    try {
      return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(data));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    threads.shutdownNow();
  }
}
