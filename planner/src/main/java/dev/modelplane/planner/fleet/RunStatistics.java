package dev.modelplane.planner.fleet;

/**
 * What the clients of a run saw: per request, time to first token, end-to-end latency and inter-token latency (the
 * request's mean gap between tokens, as genai-bench reports it), and the totals behind throughput and prefix hits.
 */
final class RunStatistics {
  private final LatencySamples ttft = new LatencySamples();
  private final LatencySamples itl = new LatencySamples();
  private final LatencySamples e2e = new LatencySamples();
  private long sent;
  private long completed;
  private long failed;
  private long firstSent = -1;
  private long lastFinish;
  private long outputTokens;
  private long promptTokens;
  private long cachedTokens;

  void sent() {
    sent++;
  }

  long inFlight() {
    return sent - completed - failed;
  }

  void refused(ClientRequest c) {
    failed++;
  }

  void completed(ClientRequest c, long nowNanos, int prompt, int cached) {
    completed++;
    if (firstSent < 0 || c.sentNanos < firstSent) {
      firstSent = c.sentNanos;
    }
    lastFinish = Math.max(lastFinish, nowNanos);
    outputTokens += c.tokens;
    promptTokens += prompt;
    cachedTokens += cached;
    if (c.firstTokenNanos >= 0) {
      ttft.add((c.firstTokenNanos - c.sentNanos) / 1e9);
      e2e.add((c.lastTokenNanos - c.sentNanos) / 1e9);
      if (c.tokens > 1) {
        itl.add((c.lastTokenNanos - c.firstTokenNanos) / 1e9 / (c.tokens - 1));
      }
    }
  }

  FleetResult result(double offeredRate, long endNanos, long wallNanos) {
    double span = completed == 0 ? 0 : (lastFinish - firstSent) / 1e9;
    long unfinished = inFlight();
    return new FleetResult(ttft.summary(), itl.summary(), e2e.summary(), offeredRate,
        span > 0 ? completed / span : 0, span > 0 ? outputTokens / span : 0, span > 0 ? promptTokens / span : 0,
        completed, failed + unfinished, promptTokens == 0 ? 0 : (double) cachedTokens / promptTokens, endNanos / 1e9,
        wallNanos / 1e9);
  }
}
