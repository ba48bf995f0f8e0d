package dev.modelplane.operator.modelsource.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Sends requests for the source clients and turns transport failures into {@link FetchException}s whose messages
 * name the server by its origin only (scheme, host, port): never a path with a signed query or a token.
 */
final class HttpSender {
  /** Most bytes of an error or listing body read into memory. */
  static final int MAX_SMALL_BODY = 16 * 1024 * 1024;

  private final HttpClient client;

  HttpSender(Duration connectTimeout) {
    this(HttpClient.newBuilder().connectTimeout(connectTimeout).followRedirects(HttpClient.Redirect.NEVER)
        .build());
  }

  HttpSender(HttpClient client) {
    this.client = client;
  }

  /** Sends a request and returns the response with its body still to read. */
  HttpResponse<InputStream> send(HttpRequest request) throws FetchException {
    try {
      return client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (HttpConnectTimeoutException e) {
      throw new FetchException(FetchException.Kind.CONNECTION,
          "cannot connect to " + origin(request.uri()) + ": connect timed out", e);
    } catch (ConnectException e) {
      throw new FetchException(FetchException.Kind.CONNECTION,
          "cannot connect to " + origin(request.uri()) + ": connection refused", e);
    } catch (HttpTimeoutException e) {
      throw new FetchException(FetchException.Kind.CONNECTION,
          origin(request.uri()) + " did not answer within " + request.timeout().map(Duration::toString).orElse("?"),
          e);
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.CONNECTION,
          "connection to " + origin(request.uri()) + " failed: " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new FetchException(FetchException.Kind.CANCELLED, "interrupted while waiting for "
          + origin(request.uri()), e);
    }
  }

  /** Reads a small body (an error, a listing page) as UTF-8, refusing more than {@link #MAX_SMALL_BODY} bytes. */
  static String readSmall(HttpResponse<InputStream> response) throws FetchException {
    try (InputStream body = response.body()) {
      byte[] bytes = body.readNBytes(MAX_SMALL_BODY + 1);
      if (bytes.length > MAX_SMALL_BODY) {
        throw new FetchException(FetchException.Kind.INVALID, origin(response.uri()) + " sent an answer larger than "
            + MAX_SMALL_BODY + " bytes");
      }
      return new String(bytes, StandardCharsets.UTF_8);
    } catch (FetchException e) {
      throw e;
    } catch (IOException e) {
      throw new FetchException(FetchException.Kind.CONNECTION, "reading the answer of " + origin(response.uri())
          + " failed: " + describe(e), e);
    }
  }

  /** Closes a response body we will not read, ignoring failures (the connection may already be gone). */
  static void discard(HttpResponse<InputStream> response) {
    try {
      response.body().close();
    } catch (IOException ignored) {
      // nothing to clean up beyond the connection, which the client handles
    }
  }

  /** {@code scheme://host[:port]} of a URI: what messages and logs may show. */
  static String origin(URI uri) {
    return uri.getScheme() + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : "");
  }

  static String describe(Throwable e) {
    String message = e.getMessage();
    return message == null || message.isBlank() ? e.getClass().getSimpleName() : message;
  }
}
