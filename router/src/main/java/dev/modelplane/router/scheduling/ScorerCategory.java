package dev.modelplane.router.scheduling;

/** GIE's scorer categories: what a score expresses. */
public enum ScorerCategory {
  /** Prefers endpoints that already hold state for the request (prefix cache, LoRA). */
  AFFINITY,
  /** Spreads load (queue, KV utilisation). */
  DISTRIBUTION,
  /** Balances between the two. */
  BALANCE
}
