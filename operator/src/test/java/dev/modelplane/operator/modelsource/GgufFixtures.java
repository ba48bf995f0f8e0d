package dev.modelplane.operator.modelsource;

import java.io.IOException;

/** Public access to the GGUF test files and loopback server for tests in other packages. */
public final class GgufFixtures {
  private GgufFixtures() {
  }

  /** A llama-like GGUF file followed by {@code filler} bytes of "tensor data". */
  public static byte[] llama(int filler) {
    return GgufWriter.llama(filler);
  }

  /** A loopback file server with range support. */
  public static Server server() throws IOException {
    return new Server(new FileServer(true));
  }

  /** A running loopback file server. */
  public static final class Server implements AutoCloseable {
    private final FileServer server;

    Server(FileServer server) {
      this.server = server;
    }

    /** Serves {@code content} at {@code path}; returns its URL. */
    public String put(String path, byte[] content) {
      return server.put(path, content);
    }

    /** The base URL, for use as a Hugging Face endpoint. */
    public String baseUrl() {
      return server.put("/.probe", new byte[0]).replace("/.probe", "");
    }

    public long bytesSent() {
      return server.bytesSent.get();
    }

    @Override
    public void close() {
      server.close();
    }
  }
}
