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
}
