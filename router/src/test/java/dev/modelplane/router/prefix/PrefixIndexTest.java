package dev.modelplane.router.prefix;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.router.pool.EndpointId;
import org.junit.jupiter.api.Test;

class PrefixIndexTest {
  private static final EndpointId A = new EndpointId("ns", "a");
  private static final EndpointId B = new EndpointId("ns", "b");

  @Test
  void matchesLongestPrefixPerEndpoint() {
    PrefixIndex index = new PrefixIndex(100);
    index.add(new long[] {1, 2, 3}, A, 0);
    index.add(new long[] {1, 2}, B, 0);
    assertThat(index.matchLongestPrefix(new long[] {1, 2, 3, 4})).containsEntry(A, 3).containsEntry(B, 2);
    // The walk stops at the first hash nobody holds.
    assertThat(index.matchLongestPrefix(new long[] {9, 1, 2})).isEmpty();
    assertThat(index.size()).isEqualTo(5);
  }

  @Test
  void lruEvictionUnlinksTheEndpoint() {
    PrefixIndex index = new PrefixIndex(100);
    index.add(new long[] {1, 2, 3}, A, 3);
    index.add(new long[] {4}, A, 3); // evicts 1, the least recently used
    assertThat(index.matchLongestPrefix(new long[] {1, 2})).isEmpty();
    assertThat(index.matchLongestPrefix(new long[] {2, 3, 4})).containsEntry(A, 3);
    assertThat(index.size()).isEqualTo(3);
  }

  @Test
  void accessRefreshesRecency() {
    PrefixIndex index = new PrefixIndex(100);
    index.add(new long[] {1, 2, 3}, A, 3);
    index.add(new long[] {1}, A, 3); // 1 becomes most recent
    index.add(new long[] {4}, A, 3); // evicts 2
    assertThat(index.matchLongestPrefix(new long[] {1})).containsEntry(A, 1);
    assertThat(index.matchLongestPrefix(new long[] {2})).isEmpty();
  }

  @Test
  void longRequestOverCapacityKeepsLinksConsistent() {
    PrefixIndex index = new PrefixIndex(100);
    index.add(new long[] {1, 2, 3, 4, 5}, A, 2);
    assertThat(index.size()).isEqualTo(2);
    assertThat(index.matchLongestPrefix(new long[] {1})).isEmpty();
    assertThat(index.matchLongestPrefix(new long[] {4, 5})).containsEntry(A, 2);
  }

  @Test
  void removingAnEndpointForgetsItsBlocks() {
    PrefixIndex index = new PrefixIndex(100);
    index.add(new long[] {1, 2}, A, 0);
    index.add(new long[] {1, 2}, B, 0);
    index.removeEndpoint(A);
    assertThat(index.matchLongestPrefix(new long[] {1, 2})).containsOnlyKeys(B);
    assertThat(index.endpoints()).containsExactly(B);
    assertThat(index.size()).isEqualTo(2);
  }
}
