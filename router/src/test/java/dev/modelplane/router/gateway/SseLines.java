package dev.modelplane.router.gateway;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Reads a streamed response's lines as they come, for tests of how a stream ends. */
final class SseLines {
  private SseLines() {
  }

  /**
   * Adds {@code body}'s non-empty lines to {@code lines} in the background; completes with the error that cut the
   * body off, or {@code null} when it ended cleanly.
   */
  static CompletableFuture<Throwable> read(InputStream body, List<String> lines) {
    return CompletableFuture.supplyAsync(() -> {
      try (BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
        for (String line; (line = reader.readLine()) != null; ) {
          if (!line.isEmpty()) {
            lines.add(line);
          }
        }
        return null;
      } catch (IOException e) {
        return e;
      }
    });
  }
}
