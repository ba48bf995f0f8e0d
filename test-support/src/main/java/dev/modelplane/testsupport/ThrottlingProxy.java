package dev.modelplane.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A TCP proxy on a free 127.0.0.1 port in front of a server on loopback that limits how fast the server's bytes reach
 * the client ({@link #throttle}), so a test can stop a download midway through a store that cannot be slowed down
 * itself (an emulator). Bytes pass unchanged: signatures over the {@code Host} header see the proxy's address on both
 * ends. Reads block only the connection's own threads; {@link #close()} closes every connection.
 */
public final class ThrottlingProxy implements AutoCloseable {
  private static final int CHUNK = 16 * 1024;

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "throttling-proxy");
    t.setDaemon(true);
    return t;
  });
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private volatile long bytesPerSecond;

  private ThrottlingProxy(InetSocketAddress target) throws IOException {
    if (!target.getAddress().isLoopbackAddress()) {
      throw new IllegalArgumentException("the proxy only forwards to loopback addresses, not " + target);
    }
    this.target = target;
    this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    threads.execute(this::accept);
  }

  /** A proxy forwarding to {@code 127.0.0.1:targetPort}. */
  public static ThrottlingProxy to(int targetPort) throws IOException {
    return new ThrottlingProxy(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
  }

  /** The port clients connect to. */
  public int port() {
    return server.getLocalPort();
  }

  /** {@code uri} with its host and port replaced by the proxy's. */
  public URI rewrite(URI uri) {
    return URI.create(uri.getScheme() + "://127.0.0.1:" + port() + (uri.getRawPath() == null ? "" : uri.getRawPath())
        + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
  }

  /** Limits server-to-client bytes per second on every connection, from now on; 0 lifts the limit. */
  public void throttle(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytes per second must not be negative: " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
  }

  private void accept() {
    while (!server.isClosed()) {
      Socket client;
      try {
        client = server.accept();
      } catch (IOException e) {
        return; // closed
      }
      threads.execute(() -> connect(client));
    }
  }

  private void connect(Socket client) {
    Socket upstream = new Socket();
    open.add(client);
    open.add(upstream);
    try {
      upstream.connect(target, 5_000);
      threads.execute(() -> pump(client, upstream, false));
      pump(upstream, client, true);
    } catch (IOException e) {
      closeQuietly(client);
      closeQuietly(upstream);
    }
  }

  private void pump(Socket from, Socket to, boolean throttled) {
    byte[] buffer = new byte[CHUNK];
    try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
      for (int n; (n = in.read(buffer)) >= 0; ) {
        long rate = throttled ? bytesPerSecond : 0;
        int at = 0;
        while (at < n) {
          int step = rate > 0 ? (int) Math.min(n - at, Math.max(1, rate / 20)) : n - at;
          out.write(buffer, at, step);
          out.flush();
          at += step;
          if (rate > 0) {
            Thread.sleep(Math.max(1, step * 1000L / rate));
          }
        }
      }
    } catch (IOException e) {
      // one side went away: the other is closed below
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private void closeQuietly(Socket socket) {
    open.remove(socket);
    try {
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  @Override
  public void close() throws IOException {
    server.close();
    open.forEach(this::closeQuietly);
    threads.shutdownNow();
  }
}
