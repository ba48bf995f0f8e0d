package dev.modelplane.operator.modelsource;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** Serves in-memory files on 127.0.0.1, with or without HTTP range support, counting the bytes it sends. */
public final class FileServer implements AutoCloseable {
  /** What model inspection needs to read from this server: plain http to loopback addresses. */
  public static final InspectionPolicy LOOPBACK = InspectionPolicy.defaults().withAllowHttp(true)
      .withAllowedCidrs(java.util.List.of("127.0.0.0/8", "::1/128"));

  private final HttpServer server;
  private final Map<String, byte[]> files = new ConcurrentHashMap<>();
  private final boolean ranges;
  final AtomicLong bytesSent = new AtomicLong();

  public FileServer(boolean ranges) throws IOException {
    this.ranges = ranges;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext("/", this::handle);
    server.start();
  }

  public String put(String path, byte[] content) {
    files.put(path, content);
    return "http://127.0.0.1:" + server.getAddress().getPort() + path;
  }

  private void handle(HttpExchange exchange) throws IOException {
    byte[] content = files.get(exchange.getRequestURI().getPath());
    try (exchange) {
      if (content == null) {
        exchange.sendResponseHeaders(404, -1);
        return;
      }
      exchange.getResponseHeaders().add("ETag", etag(content));
      String range = exchange.getRequestHeaders().getFirst("Range");
      if (ranges && range != null && range.startsWith("bytes=")) {
        String[] ends = range.substring(6).split("-");
        long start = Long.parseLong(ends[0]);
        long end = Math.min(Long.parseLong(ends[1]), content.length - 1L);
        if (start >= content.length) {
          exchange.getResponseHeaders().add("Content-Range", "bytes */" + content.length);
          exchange.sendResponseHeaders(416, -1);
          return;
        }
        exchange.getResponseHeaders().add("Content-Range", "bytes " + start + "-" + end + "/" + content.length);
        int length = (int) (end - start + 1);
        exchange.sendResponseHeaders(206, length);
        write(exchange.getResponseBody(), content, (int) start, length);
      } else {
        exchange.sendResponseHeaders(200, content.length);
        write(exchange.getResponseBody(), content, 0, content.length);
      }
    }
  }

  /** The ETag the server sends: changes with the content, as a blob hash does. */
  public static String etag(byte[] content) {
    return "\"" + Integer.toHexString(java.util.Arrays.hashCode(content)) + "-" + content.length + "\"";
  }

  private void write(OutputStream out, byte[] content, int offset, int length) {
    try {
      for (int i = offset; i < offset + length; i += 64 * 1024) {
        int n = Math.min(64 * 1024, offset + length - i);
        out.write(content, i, n);
        bytesSent.addAndGet(n);
      }
    } catch (IOException e) {
      // the client closed early: expected when it has read enough
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
