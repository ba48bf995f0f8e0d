package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.common.FieldProblem;
import dev.modelplane.operator.modelsource.ModelInspector;
import dev.modelplane.operator.modelsource.ModelLayout;

/**
 * What one reconcile of a Model found: the input of {@link ModelStatusAggregator}.
 *
 * @param generation {@code metadata.generation}
 * @param previous the status before, or null
 * @param layout the parsed layout, or null when the source is invalid
 * @param phase the phase the source dispatch decided
 * @param reason CamelCase reason for the phase
 * @param message human explanation of the phase
 * @param problem a spec problem (Failed), or null
 * @param gguf GGUF metadata, or null when not read
 * @param contentLength source size in bytes, or null
 * @param etag source ETag, or null
 * @param sha256 verified or declared checksum, or null
 * @param revalidated when the source was looked at (inspected or revalidated) in this reconcile, or null
 * @param drift the outcome of a revalidation, or null when none ran
 */
public record ModelObservation(long generation, ModelStatus previous, ModelLayout layout, ModelPhase phase,
    String reason, String message, FieldProblem problem, GgufMetadata gguf, Long contentLength, String etag,
    String sha256, java.time.Instant revalidated, Drift drift) {

  /** An observation without a look at the source's fingerprint. */
  public ModelObservation(long generation, ModelStatus previous, ModelLayout layout, ModelPhase phase, String reason,
      String message, FieldProblem problem, GgufMetadata gguf, Long contentLength, String etag, String sha256) {
    this(generation, previous, layout, phase, reason, message, problem, gguf, contentLength, etag, sha256, null, null);
  }

  /**
   * The {@code SourceDrifted} condition after a revalidation.
   *
   * @param drifted whether the cached copy differs from the source now
   * @param reason CamelCase reason
   * @param message what changed, and what happens about it
   */
  public record Drift(boolean drifted, String reason, String message) {
  }

  /** This observation with another phase, reason, message and problem (metadata and fingerprint kept). */
  ModelObservation withPhase(ModelPhase newPhase, String newReason, String newMessage, FieldProblem newProblem) {
    return new ModelObservation(generation, previous, layout, newPhase, newReason, newMessage, newProblem, gguf,
        contentLength, etag, sha256, revalidated, drift);
  }

  /** This observation with the time the source was looked at and the revalidation outcome. */
  ModelObservation withRevalidation(java.time.Instant when, Drift newDrift) {
    return new ModelObservation(generation, previous, layout, phase, reason, message, problem, gguf, contentLength,
        etag, sha256, when, newDrift);
  }

  /**
   * A Ready observation; metadata from {@code seen} when the source was inspected now, else kept from the previous
   * status.
   */
  static ModelObservation ready(ModelLayout layout, long generation, ModelStatus prev, String sha,
      ModelInspector.Inspection seen, String reason, String message) {
    GgufMetadata gguf = seen != null ? seen.gguf() : prev == null ? null : prev.gguf();
    Long length = seen != null ? seen.length() : prev == null ? null : prev.sourceContentLength();
    String etag = seen != null ? seen.etag() : prev == null ? null : prev.sourceETag();
    return new ModelObservation(generation, prev, layout, ModelPhase.READY, reason, message, null, gguf, length,
        etag, sha);
  }

  /** Whether the previous status already describes this source (same cache key or path, metadata present). */
  static boolean inspected(ModelStatus prev, ModelLayout layout) {
    return prev != null && java.util.Objects.equals(prev.path(), layout.modelPath())
        && java.util.Objects.equals(prev.cacheKey(), layout.cacheKey())
        && (prev.gguf() != null || prev.sourceContentLength() != null);
  }
}
