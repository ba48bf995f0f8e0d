package dev.modelplane.router.plugin;

/** Receives what plugins report for the router's metrics. Implementations must be cheap and thread-safe. */
public interface PluginObserver {
  /** Reports nothing. */
  PluginObserver NONE = new PluginObserver() {
  };

  /** The prefix producer matched {@code matchedBytes} of a {@code totalBytes} prompt on the chosen endpoint. */
  default void prefixMatched(long matchedBytes, long totalBytes) {
  }

  /** The P/D profile handler decided {@code decision} for a request to {@code targetModel}. */
  default void disaggDecision(String targetModel, String decision) {
  }

  /** The precise prefix index of {@code pool} read a batch of a model server's KV-cache events. */
  default void kvEventBatch(String pool) {
  }

  /** The precise prefix index of {@code pool} read an event of {@code type} ({@code BlockStored}, …). */
  default void kvEvent(String pool, String type) {
  }

  /** The precise prefix index of {@code pool} left {@code events} events (or blocks) out, for {@code reason}. */
  default void kvEventsSkipped(String pool, String reason, long events) {
  }

  /** {@code batches} of a server's batches were lost for good (neither received nor replayed). */
  default void kvEventBatchesLost(String pool, long batches) {
  }

  /** A message from a server was not an event batch. */
  default void kvEventMalformed(String pool) {
  }

  /**
   * {@code blocks} stored blocks whose server-published hash did ({@code agree}) or did not equal the hash the index
   * computed from their tokens.
   */
  default void kvBlockHashes(String pool, boolean agree, long blocks) {
  }

  /** A request of {@code pool} the precise prefix scorer scored from the approximate index, for {@code reason}. */
  default void precisePrefixFallback(String pool, String reason) {
  }
}
