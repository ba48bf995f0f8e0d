package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.router.testing.FakeModelServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Clients that hold the gateway's connections: idle keep-alives, headers or bodies trickled in (slowloris), oversized
 * heads, and a client that stops reading a fast stream. Raw sockets, each with a read timeout, so nothing hangs.
 */
class SlowClientTest extends GatewayHarness {
  private static final Duration SHORT = Duration.ofMillis(500);

  private Socket connect() throws IOException {
    Socket s = new Socket();
    s.setSoTimeout(10_000);
    s.connect(new InetSocketAddress("127.0.0.1", router.gatewayPort()), 5_000);
    return s;
  }

  /** Reads until the server closes the connection (-1) and returns what came; fails on the socket's timeout. */
  private static String readToClose(Socket s) throws IOException {
    InputStream in = s.getInputStream();
    StringBuilder sb = new StringBuilder();
    byte[] buf = new byte[8192];
    try {
      for (int n; (n = in.read(buf)) >= 0; ) {
        sb.append(new String(buf, 0, n, StandardCharsets.ISO_8859_1));
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the gateway did not close the connection; got: " + sb, e);
    } catch (IOException e) {
      // reset by the server: closed too
    }
    return sb.toString();
  }

  private static String request(String body) {
    return "POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nContent-Type: application/json\r\nContent-Length: "
        + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
  }

  @Test
  void manyClientsTricklingHeadersDoNotBlockANormalRequestAndAreClosedAfterTheIdleTimeout() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), GatewayOptions.Limits.defaults().withClient(SHORT, SHORT));
    List<Socket> slow = new ArrayList<>();
    try {
      for (int i = 0; i < 100; i++) {
        Socket s = connect();
        s.getOutputStream().write("POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\n".getBytes(
            StandardCharsets.US_ASCII));
        slow.add(s);
      }
      HttpResponse<String> r = post("/v1/chat/completions", chat("hi", false));
      assertThat(r.statusCode()).isEqualTo(200);
      for (Socket s : slow) {
        // One more header line now and then keeps bytes flowing, which a plain read-idle timeout would accept.
        s.getOutputStream().write("X-Slow: 1\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      for (Socket s : slow) {
        assertThat(readToClose(s)).doesNotContain("200 OK");
      }
      assertThat(a.requests()).isEqualTo(1);
    } finally {
      for (Socket s : slow) {
        s.close();
      }
    }
  }

  @Test
  void aBodyThatDoesNotArriveInTimeGets408AndTheConnectionIsClosed() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), GatewayOptions.Limits.defaults().withClient(Duration.ofSeconds(30), SHORT));
    try (Socket s = connect()) {
      String body = chat("hi", false);
      String full = request(body);
      // The head and half the body; the rest never comes.
      s.getOutputStream().write(full.substring(0, full.length() - body.length() / 2)
          .getBytes(StandardCharsets.UTF_8));
      String answer = readToClose(s);
      assertThat(answer).startsWith("HTTP/1.1 408").contains("\"error\"").contains("request not received within");
    }
    assertThat(a.requests()).isZero();
  }

  @Test
  void aMessagesBodyThatDoesNotArriveInTimeGetsAnAnthropic408() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), GatewayOptions.Limits.defaults().withClient(Duration.ofSeconds(30), SHORT));
    try (Socket s = connect()) {
      String body = "{\"model\":\"m\",\"max_tokens\":8,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}";
      String full = request(body).replace("POST /v1/chat/completions", "POST /v1/messages");
      s.getOutputStream().write(full.substring(0, full.length() - body.length() / 2)
          .getBytes(StandardCharsets.UTF_8));
      assertThat(readToClose(s)).startsWith("HTTP/1.1 408").contains("{\"type\":\"error\",\"error\":"
          + "{\"type\":\"invalid_request_error\",\"message\":\"request not received within");
    }
    assertThat(a.requests()).isZero();
  }

  @Test
  void anIdleKeepAliveConnectionIsClosedAfterItsResponse() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), GatewayOptions.Limits.defaults().withClient(SHORT, Duration.ofSeconds(30)));
    try (Socket s = connect()) {
      s.getOutputStream().write(request(chat("hi", false)).getBytes(StandardCharsets.UTF_8));
      String answer = readToClose(s);
      assertThat(answer).startsWith("HTTP/1.1 200").contains("hello from a");
    }
    assertThat(router.metrics().scrape()).contains("modelplane_gateway_client_timeouts_total{reason=\"idle\"} 1");
  }

  @Test
  void anOversizedHeadIsRefusedWith431() throws Exception {
    FakeModelServer a = server("a");
    router(a.hostPort(), GatewayOptions.Limits.defaults().withMaxHeaderBytes(4096));
    try (Socket s = connect()) {
      OutputStream out = s.getOutputStream();
      out.write(("POST /v1/chat/completions HTTP/1.1\r\nHost: gw\r\nX-Big: " + "y".repeat(8192) + "\r\n\r\n")
          .getBytes(StandardCharsets.US_ASCII));
      String answer = readToClose(s);
      assertThat(answer).startsWith("HTTP/1.1 431");
    }
    assertThat(a.requests()).isZero();
  }

  @Test
  void aClientThatStopsReadingAStreamPausesTheUpstreamAndIsDroppedAfterTheIdleTimeout() throws Exception {
    long total = 256L * 1024 * 1024;
    FakeModelServer a = server("a").bulkStream(total);
    router(a.hostPort(), GatewayOptions.Limits.defaults().withClient(Duration.ofSeconds(2), Duration.ofSeconds(30)));
    try (Socket s = new Socket()) {
      s.setReceiveBufferSize(64 * 1024);
      s.setSoTimeout(10_000);
      s.connect(new InetSocketAddress("127.0.0.1", router.gatewayPort()), 5_000);
      s.getOutputStream().write(request(chat("hi", true)).getBytes(StandardCharsets.UTF_8));
      // Read nothing. The upstream is paused once the gateway's write queue to us is full: what it has written
      // levels off at socket buffers, far below the whole stream.
      await().atMost(Duration.ofSeconds(10)).until(() -> a.bulkWritten() > 0);
      long[] last = {-1};
      await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(300)).until(() -> {
        long now = a.bulkWritten();
        boolean steady = now == last[0];
        last[0] = now;
        return steady;
      });
      long plateau = a.bulkWritten();
      System.out.printf("slow reader: upstream wrote %d KiB of %d KiB before pausing%n", plateau / 1024,
          total / 1024);
      assertThat(plateau).isLessThan(total / 4);
      // Still not reading: the gateway drops the client and the upstream request.
      await().atMost(Duration.ofSeconds(10)).until(() -> a.cancelled() == 1);
      assertThat(router.metrics().scrape()).contains(
          "modelplane_gateway_client_timeouts_total{reason=\"not_reading\"} 1");
      assertThat(a.bulkWritten()).isLessThan(total / 4);
    }
  }

  @Test
  void aSlowButSteadyReaderGetsTheWholeStream() throws Exception {
    long total = 8L * 1024 * 1024;
    FakeModelServer a = server("a").bulkStream(total);
    router(a.hostPort(), GatewayOptions.Limits.defaults().withClient(Duration.ofSeconds(2), Duration.ofSeconds(30)));
    try (Socket s = new Socket()) {
      s.setReceiveBufferSize(64 * 1024);
      s.setSoTimeout(10_000);
      s.connect(new InetSocketAddress("127.0.0.1", router.gatewayPort()), 5_000);
      s.getOutputStream().write(request(chat("hi", true)).getBytes(StandardCharsets.UTF_8));
      InputStream in = s.getInputStream();
      byte[] buf = new byte[256 * 1024];
      long received = 0;
      String tail = "";
      Thread.sleep(500); // a pause shorter than the idle timeout is fine
      for (int n; (n = in.read(buf)) >= 0; ) {
        received += n;
        tail = (tail + new String(buf, 0, n, StandardCharsets.ISO_8859_1));
        tail = tail.substring(Math.max(0, tail.length() - 64));
        if (tail.endsWith("0\r\n\r\n")) {
          break;
        }
      }
      assertThat(received).isGreaterThan(total);
      assertThat(tail).contains("data: [DONE]");
    }
  }
}
