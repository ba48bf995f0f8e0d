package dev.modelplane.router.gateway;

/**
 * Where a {@link ProxyExchange} is in its request's life. An exchange moves only forward, along the transitions
 * {@link #canBecome} allows, and ends in {@link #DONE} from any other phase, exactly once.
 */
enum ExchangePhase {
  /** The route and the declared body length are being checked. */
  ACCEPTING,
  /** The client's body is being read. */
  READING,
  /** The director is deciding where the request goes (parse, admit, pick). */
  DECIDING,
  /** An upstream request to the decided destination is being opened. */
  CONNECTING,
  /**
   * The request went upstream; a response head is held from the client until its first body byte, so the attempt
   * can still be given up on and retried elsewhere.
   */
  WAITING,
  /** The response head went to the client and its body is relayed: nothing can be retried any more. */
  RELAYING,
  /** A {@code GET /v1/models} answered by any endpoint of the pool. */
  PASSING_THROUGH,
  /** The client left while a decision or an upstream connection was pending: the exchange ends when it comes back. */
  ABANDONED,
  /** Over: the budget is released and the outcome recorded. */
  DONE;

  /** Whether an exchange in this phase may move to {@code next}. */
  boolean canBecome(ExchangePhase next) {
    if (next == DONE) {
      return this != DONE;
    }
    return switch (this) {
      case ACCEPTING -> next == READING || next == PASSING_THROUGH;
      case READING -> next == DECIDING;
      case DECIDING -> next == CONNECTING || next == ABANDONED;
      case CONNECTING -> next == WAITING || next == CONNECTING || next == ABANDONED; // a refused connection: retry
      case WAITING -> next == RELAYING || next == CONNECTING;
      case RELAYING, PASSING_THROUGH, ABANDONED, DONE -> false;
    };
  }
}
