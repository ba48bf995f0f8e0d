package dev.modelplane.operator.modelsource;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** An HTTP body in chunked transfer coding, decoded; trailers are read and dropped. */
final class ChunkedBody extends FilterInputStream {
  private final String host;
  private long left;
  private boolean done;

  ChunkedBody(InputStream in, String host) {
    super(in);
    this.host = host;
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
    if (left == 0 && !nextChunk()) {
      return -1;
    }
    int n = in.read(b, off, (int) Math.min(len, left));
    if (n < 0) {
      throw new IOException(host + " closed the connection in the middle of a chunk");
    }
    left -= n;
    if (left == 0) {
      InspectionHttp.readLine(in, host);
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    byte[] buffer = new byte[(int) Math.min(n, 8192)];
    int read = read(buffer, 0, buffer.length);
    return Math.max(read, 0);
  }

  @Override
  public int available() {
    return 0;
  }

  private boolean nextChunk() throws IOException {
    if (done) {
      return false;
    }
    String line = InspectionHttp.readLine(in, host);
    int semicolon = line.indexOf(';');
    String size = (semicolon < 0 ? line : line.substring(0, semicolon)).strip();
    try {
      left = Long.parseLong(size, 16);
    } catch (NumberFormatException e) {
      throw new IOException(host + " sent a malformed chunk size");
    }
    if (left < 0) {
      throw new IOException(host + " sent a malformed chunk size");
    }
    if (left == 0) {
      done = true;
      int trailers = 0;
      while (!InspectionHttp.readLine(in, host).isEmpty()) {
        if (++trailers > 100) {
          throw new IOException(host + " sent more than 100 trailer lines");
        }
      }
      return false;
    }
    return true;
  }
}
