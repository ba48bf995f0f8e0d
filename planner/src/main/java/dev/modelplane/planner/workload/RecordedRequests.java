package dev.modelplane.planner.workload;

import java.util.Arrays;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.IntStream;

/**
 * Requests read from recorded traffic, as columns (a long log stays compact). {@code arrivalNanos} is null when the
 * recording has lengths but no arrival times.
 */
record RecordedRequests(long[] arrivalNanos, int[] promptTokens, int[] outputTokens, int[] prefixGroups,
    int[] prefixTokens, int[] priorities, String[] adapters, String[] fairnessIds) {

  RecordedRequests {
    if (promptTokens.length == 0) {
      throw new IllegalArgumentException("no requests");
    }
  }

  /** Lengths only: no prefixes, priority 0, no adapter, the default flow. */
  static RecordedRequests lengthsOnly(int[] promptTokens, int[] outputTokens) {
    int n = promptTokens.length;
    int[] none = new int[n];
    int[] noGroup = new int[n];
    Arrays.fill(noGroup, -1);
    String[] flows = new String[n];
    Arrays.fill(flows, RequestMix.DEFAULT_FLOW);
    return new RecordedRequests(null, promptTokens, outputTokens, noGroup, none, none, new String[n], flows);
  }

  int size() {
    return promptTokens.length;
  }

  /** Request {@code i} of the recording as request {@code id} of a replay arriving at {@code arrival}. */
  PlannedRequest request(int i, long id, long arrival) {
    return new PlannedRequest(id, arrival, promptTokens[i], outputTokens[i], prefixGroups[i], prefixTokens[i],
        priorities[i], adapters[i], fairnessIds[i]);
  }

  TreeSet<String> adapterNames() {
    return new TreeSet<>(Arrays.stream(adapters).filter(Objects::nonNull).toList());
  }

  double meanPrompt() {
    return IntStream.of(promptTokens).average().orElse(0);
  }

  double meanOutput() {
    return IntStream.of(outputTokens).average().orElse(0);
  }

  long prefixGroupCount() {
    return IntStream.of(prefixGroups).filter(g -> g >= 0).distinct().count();
  }

  double loraShare() {
    return Arrays.stream(adapters).filter(Objects::nonNull).count() / (double) size();
  }
}
