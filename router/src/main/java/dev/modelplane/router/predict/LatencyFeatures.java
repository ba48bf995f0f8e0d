package dev.modelplane.router.predict;

/**
 * What the predictor knows about sending one request to one endpoint, taken when the request is scheduled. The
 * router-local counts ({@code pendingPrefillTokens}, {@code inFlight}) are exact and current for the traffic this
 * router sends; the scraped ones ({@code waiting}, {@code kvUsage}) also see other clients, but lag by a scrape.
 *
 * @param promptTokens estimated prompt tokens of the request
 * @param uncachedTokens of those, the ones the endpoint is not believed to hold in its prefix cache
 * @param pendingPrefillTokens uncached prompt tokens of the requests this router sent to the endpoint that have not
 *     produced their first byte yet (prefill work queued ahead of this request)
 * @param inFlight requests this router has running on the endpoint (not counting this one)
 * @param waiting the endpoint's scraped waiting queue
 * @param kvUsage the endpoint's scraped KV-cache utilisation, 0..1
 */
public record LatencyFeatures(int promptTokens, int uncachedTokens, long pendingPrefillTokens, int inFlight,
    int waiting, double kvUsage) {

  /** Features of the time-to-first-token model. */
  static final int TTFT_DIMENSIONS = 6;
  /** Features of the time-per-output-token model. */
  static final int TPOT_DIMENSIONS = 4;
  /** Where the batch size sits in {@link #tpotVector()}. */
  static final int TPOT_BATCH_INDEX = 1;

  /**
   * {@code [1, u, p, n, u·n, w]} with u, p in thousands of tokens: a prefill costs a fixed part plus a part per
   * token, both stretched by the batch it joins, plus what the prefills already queued and the waiting requests add.
   */
  double[] ttftVector() {
    double u = uncachedTokens / 1000.0;
    double n = inFlight;
    return new double[] {1, u, pendingPrefillTokens / 1000.0, n, u * n, waiting};
  }

  /** {@code [1, n + 1, kv, p]}: a decode step grows with the batch, the cache in use and prefills that stall it. */
  double[] tpotVector() {
    return new double[] {1, inFlight + 1.0, kvUsage, pendingPrefillTokens / 1000.0};
  }

  /**
   * Starting TTFT coefficients in milliseconds, the shape of a mid-size model on one modern GPU: 20 ms fixed, 100 ms
   * per thousand tokens to prefill, the batch stretching both by a few percent per running request, 50 ms per request
   * queued. The data overrides them within tens of requests; they matter only for ordering endpoints at start.
   */
  static double[] ttftPrior() {
    return new double[] {20, 100, 100, 0.5, 3, 50};
  }

  /** Starting TPOT coefficients in milliseconds: 10 ms per step, +0.3 ms per running request. */
  static double[] tpotPrior() {
    return new double[] {10, 0.3, 5, 2};
  }
}
