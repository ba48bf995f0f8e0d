package dev.modelplane.simulator.physics;

/**
 * What one engine step computes, in the quantities its cost depends on. Filled by the engine while it schedules a
 * step (one object reused step after step, so it is mutable), then priced by {@link StepCostModel#stepNanos}.
 */
public final class StepBatch {
  int decodeSeqs;
  long decodeContext;
  int prefillTokens;
  int prefillSeqs;
  double prefillPairs;
  long prefillContext;

  /** Empties the batch. */
  public StepBatch clear() {
    decodeSeqs = 0;
    decodeContext = 0;
    prefillTokens = 0;
    prefillSeqs = 0;
    prefillPairs = 0;
    prefillContext = 0;
    return this;
  }

  /** A sequence decodes one token whose attention reads {@code contextTokens} cached tokens (its own included). */
  public StepBatch decode(long contextTokens) {
    decodeSeqs++;
    decodeContext += contextTokens;
    return this;
  }

  /**
   * A sequence prefills {@code tokens} new tokens after {@code priorTokens} already in the cache (a prefix-cache hit
   * or an earlier chunk): their projections are computed, their attention covers the prior tokens and, causally,
   * each other, and the prior tokens' KV is read once.
   */
  public StepBatch prefill(int tokens, long priorTokens) {
    if (tokens <= 0) {
      return this;
    }
    prefillSeqs++;
    prefillTokens += tokens;
    prefillPairs += tokens * (priorTokens + tokens / 2.0);
    prefillContext += priorTokens;
    return this;
  }

  /** Tokens through the model in this step. */
  public int tokens() {
    return decodeSeqs + prefillTokens;
  }

  /** Sequences in the step (each gets a row of logits). */
  public int sequences() {
    return decodeSeqs + prefillSeqs;
  }

  public int decodeSeqs() {
    return decodeSeqs;
  }

  public int prefillTokens() {
    return prefillTokens;
  }

  public boolean isEmpty() {
    return tokens() == 0;
  }
}
