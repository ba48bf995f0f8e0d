package dev.modelplane.operator.modelsource.fetch;

import java.io.FilterInputStream;
import java.io.InputStream;

/**
 * The body of a file download, and where in the file it starts: the requested offset when the server honoured the
 * range, 0 when it sent the whole file.
 */
public final class RemoteStream extends FilterInputStream {
  private final long startOffset;

  public RemoteStream(InputStream body, long startOffset) {
    super(body);
    this.startOffset = startOffset;
  }

  /** The offset in the file of this stream's first byte. */
  public long startOffset() {
    return startOffset;
  }
}
