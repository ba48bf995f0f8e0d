package dev.modelplane.operator.modelsource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.util.Map;

/**
 * Reads a remote file sequentially through HTTP range requests, fetching growing chunks only as the reader gets to
 * them; {@link #skip} moves forward without downloading. A server that ignores ranges (200 instead of 206) is read as
 * a plain stream and closed early. Also reports the file's total length and ETag. Requests go through an
 * {@link InspectionHttp}, so its policy applies to each; messages show the URL without its query.
 */
public final class RangedHttpInputStream extends InputStream {
  private static final int FIRST_CHUNK = 256 * 1024;
  private static final int MAX_CHUNK = 8 * 1024 * 1024;

  private final InspectionHttp http;
  private final URI uri;
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
  public RangedHttpInputStream(InspectionHttp http, URI uri, long maxBytes) {
    this.http = http;
    this.uri = uri;
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
      throw new IOException("read more than " + maxBytes + " bytes of " + RedactedUrl.of(uri.toString()));
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
    InspectionHttp.Response response = http.get(uri, Map.of("Range", "bytes=" + position + "-" + end));
    etag = response.header("ETag") != null ? response.header("ETag") : etag;
    int status = response.status();
    if (status == 206) {
      String range = response.header("Content-Range");
      if (range != null) {
        int slash = range.lastIndexOf('/');
        if (slash >= 0 && !range.endsWith("*")) {
          try {
            totalLength = Long.parseLong(range.substring(slash + 1).strip());
          } catch (NumberFormatException e) {
            response.close();
            throw new IOException("GET " + RedactedUrl.of(uri.toString()) + " answered a malformed Content-Range");
          }
        }
      }
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
      String length = response.header("Content-Length");
      try {
        totalLength = length == null ? -1 : Long.parseLong(length.strip());
      } catch (NumberFormatException e) {
        totalLength = -1;
      }
      plain = response.body();
      return;
    }
    response.body().close();
    throw new IOException("GET " + RedactedUrl.of(uri.toString()) + " answered " + status);
  }

  @Override
  public void close() throws IOException {
    if (plain != null) {
      plain.close();
    }
  }
}
