package dev.modelplane.operator.llmkube.model;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.common.FieldProblem;
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
}
