package dev.modelplane.router.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.testing.FakeModelServer;
import dev.modelplane.testsupport.Mutations;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A byte-level fuzz of the gateway over TCP: thousands of generated and mutated raw HTTP/1.1 requests (broken
 * request lines, bad, duplicate and oversized headers, wrong Content-Length, broken chunked encoding, invalid JSON,
 * random bytes, pipelining, early close) on plain sockets with read timeouts. Every response the gateway produces
 * itself is below 500 (the fake upstream marks its own responses with {@code x-fake-server}); every complete request
 * is answered, or its connection closed, within the timeout; and afterwards a valid request still gets a 200.
 */
class GatewayFuzzTest extends GatewayHarness {
  private static final int CASES = Integer.getInteger("fuzz.cases", 3000);
  private static final long SEED = 7381;
  private static final int ANSWER_TIMEOUT_MS = 5000;
  private static final int INCOMPLETE_TIMEOUT_MS = 400;
  private static final String MARKER = "x-fake-server";
  /** Above the largest valid body generated (1.1 MB), below the oversized ones. */
  private static final int MAX_BODY = 2 << 20;
  private static final List<String> PATHS = List.of("/v1/chat/completions", "/v1/completions", "/v1/embeddings",
      "/v1/models", "/health", "/metrics", "/", "*", "/v1/chat/completions?stream=true", "/%zz", "/v1/../etc");
  private static final Mutations MUTATIONS = new Mutations(List.of("\r\n", "\r\n\r\n", "\n", ":", " ", "\t",
      "Content-Length: ", "Transfer-Encoding: chunked\r\n", "0\r\n\r\n", "HTTP/1.1", "-1", "99999999999999999999",
      "\u0000", "{", "\"", "Host: a\r\n", "Expect: 100-continue\r\n", "Connection: close\r\n"), 1 << 21);

  private static final java.util.concurrent.atomic.AtomicInteger protocolRefusals =
      new java.util.concurrent.atomic.AtomicInteger();

  /** What one connection produced. */
  record Outcome(String kind, List<Integer> statuses, boolean upstream5xx, String violation) {
  }

  @Test
  void thousandsOfHostileRequestsGetA4xxOrACloseNeverAGateway5xxOrAHang() throws Exception {
    FakeModelServer upstream = server("a");
    router(upstream.hostPort(), null, MAX_BODY);
    int port = router.gatewayPort();
    Random seeds = new Random(SEED);
    ExecutorService clients = Executors.newFixedThreadPool(12);
    List<Future<Outcome>> futures = new ArrayList<>();
    try {
      for (int i = 0; i < CASES; i++) {
        long seed = seeds.nextLong();
        futures.add(clients.submit(() -> exchange(port, new Random(seed))));
      }
      Map<String, Integer> histogram = new TreeMap<>();
      Map<String, Integer> kinds = new TreeMap<>();
      List<String> violations = new ArrayList<>();
      for (Future<Outcome> f : futures) {
        Outcome o = f.get(2, TimeUnit.MINUTES);
        kinds.merge(o.kind(), 1, Integer::sum);
        if (o.statuses().isEmpty()) {
          histogram.merge("no response (closed or incomplete request)", 1, Integer::sum);
        }
        o.statuses().forEach(s -> histogram.merge(String.valueOf(s), 1, Integer::sum));
        if (o.violation() != null) {
          violations.add(o.kind() + ": " + o.violation());
        }
      }
      System.out.println("gateway fuzz: " + CASES + " connections, seed " + SEED);
      System.out.println("request kinds: " + kinds);
      System.out.println("response statuses: " + histogram);
      System.out.println("501/505 answers to an unknown method or HTTP version: " + protocolRefusals.get());
      assertThat(violations).as("gateway 5xx or hangs").isEmpty();
    } finally {
      clients.shutdownNow();
    }
    HttpResponse<String> after = post("/v1/chat/completions", chat("still there?", false));
    assertThat(after.statusCode()).isEqualTo(200);
    assertThat(after.headers().firstValue(MARKER)).contains("a");
  }

  /** One connection: a generated request, its answer read with timeouts. */
  private static Outcome exchange(int port, Random r) {
    Request request = request(r);
    List<Integer> statuses = new ArrayList<>();
    String violation = null;
    boolean upstream5xx = false;
    try (Socket socket = new Socket("127.0.0.1", port)) {
      socket.setSoTimeout(request.complete() ? ANSWER_TIMEOUT_MS : INCOMPLETE_TIMEOUT_MS);
      OutputStream out = socket.getOutputStream();
      try {
        if (request.earlyClose()) {
          out.write(request.bytes(), 0, request.bytes().length / 2);
          out.flush();
          return new Outcome(request.kind(), statuses, false, null);
        }
        out.write(request.bytes());
        out.flush();
      } catch (IOException e) {
        // The gateway closed the connection while we wrote (e.g. after refusing an oversized header): an answer.
      }
      InputStream in = new BufferedInputStream(socket.getInputStream());
      while (true) {
        Response response;
        try {
          response = Response.read(in);
        } catch (StalledBody e) {
          statuses.add(e.status);
          violation = "response body stalled (" + e.getMessage() + ") for " + request.shown();
          break;
        } catch (SocketTimeoutException e) {
          if (statuses.isEmpty() && request.complete()) {
            violation = "no answer within " + ANSWER_TIMEOUT_MS + " ms to a complete request: " + request.shown();
          }
          break;
        } catch (IOException e) {
          break; // reset by the gateway: a close
        }
        if (response == null) {
          break; // closed
        }
        statuses.add(response.status());
        if (request.mustSucceed() && response.status() != 200 && violation == null) {
          violation = "valid request answered " + response.status() + " " + response.body() + ": " + request.shown();
        }
        if (response.status() == 501 || response.status() == 505) {
          protocolRefusals.incrementAndGet(); // an unknown method or HTTP version: the answer RFC 9110 prescribes
        } else if (response.status() >= 500) {
          if (response.upstream()) {
            upstream5xx = true;
          } else if (violation == null) {
            violation = "gateway answered " + response.status() + " " + response.body() + " to " + request.shown();
          }
        }
        socket.setSoTimeout(statuses.size() < request.expected() ? ANSWER_TIMEOUT_MS : 200);
      }
    } catch (IOException e) {
      return new Outcome(request.kind(), statuses, upstream5xx, "could not connect: " + e);
    }
    if (violation == null && request.mustSucceed()
        && (statuses.size() != request.expected() || statuses.stream().anyMatch(s -> s != 200))) {
      // A gateway that refused everything would pass the checks above: valid requests must reach the upstream.
      violation = "valid request answered " + statuses + " instead of " + request.expected() + " x 200: "
          + request.shown();
    }
    return new Outcome(request.kind(), statuses, upstream5xx, violation);
  }

  /**
   * A generated request: {@code complete} when its framing is whole, so an answer is due; {@code expected}
   * responses for pipelined requests.
   */
  record Request(String kind, byte[] bytes, boolean complete, int expected, boolean earlyClose) {
    /** Well-formed requests within every limit: each must be answered 200 by the upstream. */
    boolean mustSucceed() {
      return kind.equals("valid") || kind.equals("pipelined");
    }

    String shown() {
      String s = new String(bytes, 0, Math.min(bytes.length, 300), StandardCharsets.ISO_8859_1);
      return s.replace("\r", "\\r").replace("\n", "\\n");
    }
  }

  private static Request request(Random r) {
    String only = System.getProperty("fuzz.kinds", "");
    int kind = only.isEmpty() ? r.nextInt(13) : Integer.parseInt(pick(r, only.split(",")));
    return switch (kind) {
      case 0 -> new Request("valid", valid(r), true, 1, false);
      case 1, 2, 3 -> new Request("mutated", MUTATIONS.mutate(valid(r), valid(r), r), false, 1, false);
      case 4 -> new Request("broken request line", ascii(pick(r, "GARBAGE", "POST", "POST /v1/completions",
          "POST /v1/completions HTTP/9.9", "POST  HTTP/1.1", "\u0000\u0001 / HTTP/1.1", "GET /"
          + "a".repeat(20_000) + " HTTP/1.1", "POST /v1/completions HTTP/1.1 extra", "PO\tST / HTTP/1.1",
          "BREW /v1/completions HTTP/1.1") + "\r\nHost: a\r\n\r\n"), true, 1, false);
      case 5 -> new Request("bad headers", badHeaders(r), true, 1, false);
      case 6 -> {
        byte[] body = chatBody(r);
        int declared = r.nextBoolean() ? body.length + 1 + r.nextInt(100) : Math.max(0, body.length - 1 - r.nextInt(5));
        boolean longer = declared > body.length;
        yield new Request("wrong content-length", concat(head("POST", pick(r, PATHS),
            "Content-Length: " + declared + "\r\n"), body), !longer, 1, false);
      }
      case 7 -> new Request("broken chunked", brokenChunked(r), false, 1, false);
      case 8 -> {
        byte[] body = ascii(pick(r, "", "{", "[]", "null", "{\"model\":1}", "{\"model\":\"m\"}", "\"x\"",
            "{\"model\":\"m\",\"messages\":[]}", "{\"model\":\"m\",\"messages\":" + "[".repeat(5000) + "}",
            "{\"model\":\"m\",\"prompt\":\"\\ud800\"}", "{\"a\":1e99999}"));
        yield new Request("invalid json", concat(head("POST", pick(r, PATHS), "Content-Length: " + body.length
            + "\r\nContent-Type: application/json\r\n"), body), true, 1, false);
      }
      case 9 -> {
        byte[] b = new byte[1 + r.nextInt(2000)];
        r.nextBytes(b);
        yield new Request("random bytes", b, false, 1, false);
      }
      case 10 -> {
        int n = 2 + r.nextInt(4);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < n; i++) {
          out.writeBytes(valid(r));
        }
        yield new Request("pipelined", out.toByteArray(), true, n, false);
      }
      case 11 -> {
        // Too large: 413 whether declared or chunked, and the gateway stays up.
        byte[] body = ascii("{\"model\":\"m\",\"messages\":[" + "{},".repeat(MAX_BODY / 3 + 1000) + "{}]}");
        yield new Request("oversized", concat(head("POST", "/v1/chat/completions", "Content-Length: " + body.length
            + "\r\nContent-Type: application/json\r\n"), body), true, 1, false);
      }
      default -> new Request("early close", valid(r), false, 0, true);
    };
  }

  private static byte[] valid(Random r) {
    boolean large = r.nextInt(20) == 0;
    byte[] body = large ? ascii("{\"model\":\"m\",\"prompt\":\"" + "x".repeat(1_100_000) + "\"}") : chatBody(r);
    // the large body is a completions request (no messages): valid on that path only
    String path = large || r.nextBoolean() ? "/v1/completions" : "/v1/chat/completions";
    if (r.nextInt(4) == 0) {
      ByteArrayOutputStream chunked = new ByteArrayOutputStream();
      int at = 0;
      while (at < body.length) {
        int len = Math.min(body.length - at, 1 + r.nextInt(64));
        chunked.writeBytes(ascii(Integer.toHexString(len) + "\r\n"));
        chunked.write(body, at, len);
        chunked.writeBytes(ascii("\r\n"));
        at += len;
      }
      chunked.writeBytes(ascii("0\r\n\r\n"));
      return concat(head("POST", path, "Transfer-Encoding: chunked\r\nContent-Type: application/json\r\n"),
          chunked.toByteArray());
    }
    return concat(head("POST", path, "Content-Length: " + body.length + "\r\nContent-Type: application/json\r\n"),
        body);
  }

  private static byte[] chatBody(Random r) {
    return ascii("{\"model\":\"m\",\"stream\":" + r.nextBoolean() + ",\"prompt\":\"p\",\"messages\":[{\"role\":"
        + "\"user\",\"content\":\"hi " + r.nextInt(1000) + "\"}]}");
  }

  private static byte[] badHeaders(Random r) {
    byte[] body = chatBody(r);
    String headers = switch (r.nextInt(9)) {
      case 0 -> "Content-Length: " + body.length + "\r\nContent-Length: " + (body.length + 5) + "\r\n";
      case 1 -> {
        // Both framings: Transfer-Encoding wins (RFC 9112), so the body is sent chunked and the request is whole.
        String hex = Integer.toHexString(body.length);
        body = concat(ascii(hex + "\r\n"), body, ascii("\r\n0\r\n\r\n"));
        yield "Content-Length: " + body.length + "\r\nTransfer-Encoding: chunked\r\n";
      }
      case 2 -> "X-Big: " + "a".repeat(70_000) + "\r\nContent-Length: " + body.length + "\r\n";
      case 3 -> "NoColonHere\r\nContent-Length: " + body.length + "\r\n";
      case 4 -> "Content-Length: " + body.length + "\r\nX-Folded: a\r\n  b\r\n";
      case 5 -> "Content-Length: -" + body.length + "\r\n";
      case 6 -> "Content-Length: 99999999999999999999\r\n";
      case 7 -> "Bad Name: x\r\nContent-Length: " + body.length + "\r\n";
      default -> ("X-Many: " + "v\r\nX-Many: ".repeat(2000)) + "v\r\nContent-Length: " + body.length + "\r\n";
    };
    return concat(head("POST", "/v1/chat/completions", headers), body);
  }

  private static byte[] brokenChunked(Random r) {
    String chunks = switch (r.nextInt(6)) {
      case 0 -> "zz\r\nabc\r\n0\r\n\r\n";
      case 1 -> "5\r\nabc\r\n0\r\n\r\n";
      case 2 -> "FFFFFFFFFFFFFFFF\r\nabc\r\n";
      case 3 -> "3\r\nabc";
      case 4 -> "3;ext=\u0001\r\nabc\r\n0\r\n\r\n";
      default -> "3\r\n{\"a\r\n0\r\nX-Trailer: x\r\n\r\n";
    };
    return concat(head("POST", "/v1/completions", "Transfer-Encoding: chunked\r\n"), ascii(chunks));
  }

  private static byte[] head(String method, String path, String headers) {
    return ascii(method + " " + path + " HTTP/1.1\r\nHost: gateway\r\n" + headers + "\r\n");
  }

  private static String pick(Random r, List<String> options) {
    return options.get(r.nextInt(options.size()));
  }

  private static String pick(Random r, String... options) {
    return options[r.nextInt(options.length)];
  }

  private static byte[] ascii(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** A response whose head arrived but whose body stopped arriving within the timeout. */
  static final class StalledBody extends IOException {
    final int status;

    StalledBody(int status, int bytes) {
      super("status " + status + ", body stalled after " + bytes + " bytes");
      this.status = status;
    }
  }

  /** One HTTP/1.1 response read from the wire; null at a clean end of stream. */
  record Response(int status, boolean upstream, String body) {
    static Response read(InputStream in) throws IOException {
      String statusLine = line(in);
      if (statusLine == null) {
        return null;
      }
      String[] parts = statusLine.split(" ", 3);
      if (parts.length < 2 || !parts[0].startsWith("HTTP/1.")) {
        throw new IOException("not a status line: " + statusLine);
      }
      int status = Integer.parseInt(parts[1]);
      boolean upstream = false;
      long length = -1;
      boolean chunked = false;
      for (String h = line(in); h != null && !h.isEmpty(); h = line(in)) {
        int colon = h.indexOf(':');
        String name = colon < 0 ? h : h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
        String value = colon < 0 ? "" : h.substring(colon + 1).trim();
        switch (name) {
          case MARKER -> upstream = true;
          case "content-length" -> length = Long.parseLong(value);
          case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).contains("chunked");
          default -> {
          }
        }
      }
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      try {
        readBody(in, status, chunked, length, body);
      } catch (SocketTimeoutException e) {
        throw new StalledBody(status, body.size());
      }
      if (status == 100) {
        return read(in); // Expect: 100-continue; the real answer follows
      }
      String text = body.toString(StandardCharsets.UTF_8);
      return new Response(status, upstream, text.length() > 300 ? text.substring(0, 300) : text);
    }

    private static void readBody(InputStream in, int status, boolean chunked, long length, ByteArrayOutputStream body)
        throws IOException {
      if (status == 100) {
        return;
      }
      if (chunked) {
        for (long size = Long.parseLong(line(in).split(";")[0].trim(), 16); size > 0;
            size = Long.parseLong(line(in).split(";")[0].trim(), 16)) {
          body.writeBytes(in.readNBytes((int) size));
          line(in);
        }
        for (String t = line(in); t != null && !t.isEmpty(); t = line(in)) {
          // trailers
        }
      } else if (length > 0) {
        body.writeBytes(in.readNBytes((int) length));
      } else if (length < 0 && status != 204 && status != 304) {
        body.writeBytes(in.readAllBytes());
      }
    }

    private static String line(InputStream in) throws IOException {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int c;
      while ((c = in.read()) >= 0) {
        if (c == '\n') {
          byte[] b = out.toByteArray();
          int len = b.length > 0 && b[b.length - 1] == '\r' ? b.length - 1 : b.length;
          return new String(b, 0, len, StandardCharsets.ISO_8859_1);
        }
        out.write(c);
      }
      return out.size() == 0 ? null : out.toString(StandardCharsets.ISO_8859_1);
    }
  }
}
