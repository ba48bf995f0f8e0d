package dev.modelplane.operator.model;

import dev.modelplane.api.llmkube.v1alpha1.GgufMetadata;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.common.FieldProblem;

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
 */
public record ModelObservation(long generation, ModelStatus previous, ModelLayout layout, ModelPhase phase,
    String reason, String message, FieldProblem problem, GgufMetadata gguf, Long contentLength, String etag,
    String sha256) {
}
