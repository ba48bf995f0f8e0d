package dev.modelplane.simulator;

import java.util.List;

/**
 * One request inside the engine. Prompt and output are decided on arrival; the engine only advances counters.
 * Fields after "engine state" belong to the engine thread.
 */
final class Sequence {
  /** Receives a sequence's progress on the engine thread; implementations must not block. */
  interface Listener {
    /** Token {@code index} of the output was produced at model time {@code nanos}. */
    void onToken(Sequence seq, int index);

    /** The sequence ended: finish reason {@code stop}, {@code length} or {@code abort}. */
    void onFinish(Sequence seq, String finishReason);
  }

  final String requestId;
  final int[] tokens;
  final int promptLen;
  final List<String> output;
  final String finishReason;
  final int maxTokensParam;
  final String adapter;
  final Listener listener;
  long arrivalNanos;
  /** The caller's trace context; {@code null} when tracing is off (set before the engine sees the sequence). */
  io.opentelemetry.context.Context traceParent;

  // ---- engine state
  int target;
  int computed;
  int cachedTokens;
  int budgetHeld;
  long prefillEnd;
  long order;
  boolean decodingNow;
  int generated;
  int[] blockTable = new int[0];
  int blockCount;
  /** Hashes of the sequence's first {@code hashedBlocks} full blocks, and the digests they chain on. */
  long[] blockHashes = new long[0];
  byte[][] blockDigests = new byte[0][];
  int hashedBlocks;
  int committedBlocks;
  boolean everAdmitted;
  long admitNanos;
  long firstTokenNanos = -1;
  long lastTokenNanos;
  volatile boolean cancelled;
  boolean done;

  Sequence(String requestId, int[] promptIds, List<String> output, int[] outputIds, String finishReason,
      int maxTokensParam, String adapter, Listener listener) {
    this.requestId = requestId;
    this.promptLen = promptIds.length;
    this.output = output;
    this.finishReason = finishReason;
    this.maxTokensParam = maxTokensParam;
    this.adapter = adapter;
    this.listener = listener;
    this.tokens = new int[promptLen + output.size()];
    System.arraycopy(promptIds, 0, tokens, 0, promptLen);
    System.arraycopy(outputIds, 0, tokens, promptLen, output.size());
  }

  int outputLen() {
    return output.size();
  }

  boolean prefilling() {
    return computed < target;
  }

  /** Appends a KV block to the block table, growing it as needed. */
  void appendBlock(int id) {
    if (blockCount == blockTable.length) {
      blockTable = java.util.Arrays.copyOf(blockTable, Math.max(4, blockCount * 2));
    }
    blockTable[blockCount++] = id;
  }
}
