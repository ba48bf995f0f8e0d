package dev.modelplane.planner.fleet;

/**
 * What a simulated run measured, as a client of the gateway sees it. Latencies are from the client's send to its
 * first token (TTFT), between tokens (ITL) and to the last token (E2E).
 *
 * @param ttft time to first token
 * @param itl inter-token latency
 * @param e2e end-to-end latency
 * @param offeredRate requests per second the workload sent
 * @param requestsPerSecond completed requests per second of simulated time
 * @param outputTokensPerSecond generated tokens per second
 * @param inputTokensPerSecond prompt tokens per second
 * @param completed requests that completed
 * @param failed requests refused or failed (shed, queue full, timed out)
 * @param prefixHitRate share of prompt tokens the servers found in their prefix cache
 * @param simulatedSeconds simulated time the run covered
 * @param wallSeconds wall time the run took
 */
public record FleetResult(LatencySummary ttft, LatencySummary itl, LatencySummary e2e, double offeredRate,
    double requestsPerSecond, double outputTokensPerSecond, double inputTokensPerSecond, long completed, long failed,
    double prefixHitRate, double simulatedSeconds, double wallSeconds) {

  /** How many times faster than real time the run went. */
  public double speedUp() {
    return wallSeconds > 0 ? simulatedSeconds / wallSeconds : Double.POSITIVE_INFINITY;
  }
}
