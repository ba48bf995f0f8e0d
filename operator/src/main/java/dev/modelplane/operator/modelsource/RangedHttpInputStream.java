package dev.modelplane.operator.modelsource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads a remote file sequentially through HTTP range requests, fetching growing chunks only as the reader gets to
 * them; {@link #skip} moves forward without downloading. A server that ignores ranges (200 instead of 206) is read as
 * a plain stream and closed early. Also reports the file's total length and ETag.
 */
public final class RangedHttpInputStream extends InputStream {
  private static final int FIRST_CHUNK = 256 * 1024;
  private static final int MAX_CHUNK = 8 * 1024 * 1024;

  private final HttpClient client;
  private final URI uri;
  private final Duration timeout;
  private final long maxBytes;
  private byte[] chunk = new byte[0];
  private int chunkPos;
  private long chunkStart;
  private long position;
  private int nextSize = FIRST_CHUNK;
  private InputStream plain;
  private long totalLength = -1;
  private String etag;
  private boolean probed;

  /**
   * @param maxBytes reading beyond this many bytes fails, to bound what a hostile server can make us fetch
   */
  public RangedHttpInputStream(HttpClient client, URI uri, Duration timeout, long maxBytes) {
    this.client = client;
    this.uri = uri;
    this.timeout = timeout;
    this.maxBytes = maxBytes;
  }

  /** The total file length, or -1 when unknown; known after the first read. */
  public long totalLength() {
    return totalLength;
  }

  /** The file's ETag, or null. */
  public String etag() {
    return etag;
  }

  /** Makes the first request (without reading), so that length and ETag are known. */
  public void probe() throws IOException {
    if (!probed) {
      fetch();
    }
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (len == 0) {
      return 0;
    }
    if (position >= maxBytes) {
      throw new IOException("read more than " + maxBytes + " bytes of " + uri);
    }
    if (plain != null) {
      int n = plain.read(b, off, (int) Math.min(len, maxBytes - position));
      if (n > 0) {
        position += n;
      }
      return n;
    }
    if (position < chunkStart || position >= chunkStart + chunk.length) {
      if (totalLength >= 0 && position >= totalLength) {
        return -1;
      }
      fetch();
      if (plain != null) {
        return read(b, off, len);
      }
      if (chunk.length == 0) {
        return -1;
      }
    }
    chunkPos = (int) (position - chunkStart);
    int n = Math.min(len, chunk.length - chunkPos);
    System.arraycopy(chunk, chunkPos, b, off, n);
    position += n;
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    if (n <= 0) {
      return 0;
    }
    if (plain != null) {
      long skipped = plain.skip(n);
      position += Math.max(skipped, 0);
      return skipped;
    }
    long target = position + n;
    if (totalLength >= 0) {
      target = Math.min(target, totalLength);
    }
    long skipped = target - position;
    position = target;
    return skipped;
  }

  private void fetch() throws IOException {
    probed = true;
    long end = position + nextSize - 1;
    nextSize = Math.min(nextSize * 2, MAX_CHUNK);
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout)
        .header("Range", "bytes=" + position + "-" + end).GET().build();
    HttpResponse<InputStream> response;
    try {
      response = client.send(request, HttpResponse.BodyHandlers.ofInputStream());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while reading " + uri, e);
    }
    etag = response.headers().firstValue("ETag").orElse(etag);
    int status = response.statusCode();
    if (status == 206) {
      Optional<String> range = response.headers().firstValue("Content-Range");
      range.ifPresent(r -> {
        int slash = r.lastIndexOf('/');
        if (slash >= 0 && !r.endsWith("*")) {
          totalLength = Long.parseLong(r.substring(slash + 1).trim());
        }
      });
      try (InputStream body = response.body()) {
        chunk = body.readNBytes((int) (end - position + 1));
      }
      chunkStart = position;
      return;
    }
    if (status == 416) {
      response.body().close();
      chunk = new byte[0];
      chunkStart = position;
      totalLength = position;
      return;
    }
    if (status == 200 && position == 0) {
      totalLength = response.headers().firstValueAsLong("Content-Length").orElse(-1);
      plain = response.body();
      return;
    }
    response.body().close();
    throw new IOException("GET " + uri + " answered " + status);
  }

  @Override
  public void close() throws IOException {
    if (plain != null) {
      plain.close();
    }
  }
}
