package dev.modelplane.common.kvevents;

import java.util.List;

/**
 * What one published message carries: the events of one engine step.
 *
 * @param timestamp seconds since the epoch when the batch was made
 * @param events the events, in the order they happened
 * @param dataParallelRank the data-parallel rank of the engine that made them, or null when it did not say
 */
public record KvEventBatch(double timestamp, List<KvEvent> events, Integer dataParallelRank) {
  public KvEventBatch {
    events = List.copyOf(events);
  }
}
