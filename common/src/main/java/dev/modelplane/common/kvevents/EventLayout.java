package dev.modelplane.common.kvevents;

/**
 * How a server lays out each event in a batch. Readers accept both; a writer picks the one its consumers expect.
 */
public enum EventLayout {
  /**
   * A positional array whose first element is the event's type ({@code ["BlockStored", hashes, parent, ...]}), every
   * field present (nil when unset): vLLM up to the 0.2x releases, and llm-d-inference-sim by default.
   */
  ARRAY,
  /**
   * A map with the type under {@code "type"} and the other fields by name, optional fields left out when unset: newer
   * vLLM releases.
   */
  MAP
}
