package dev.modelplane.operator.modelsource;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** An HTTP body of a known Content-Length: ends after that many bytes. */
final class LimitedBody extends FilterInputStream {
  private long left;

  LimitedBody(InputStream in, long length) {
    super(in);
    this.left = Math.max(0, length);
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (left == 0) {
      return -1;
    }
    int n = in.read(b, off, (int) Math.min(len, left));
    if (n > 0) {
      left -= n;
    }
    return n;
  }

  @Override
  public long skip(long n) throws IOException {
    long skipped = in.skip(Math.min(n, left));
    left -= Math.max(0, skipped);
    return skipped;
  }

  @Override
  public int available() throws IOException {
    return (int) Math.min(in.available(), left);
  }
}
