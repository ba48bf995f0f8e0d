package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * The observed state of a Model.
 *
 * @param phase Where the model is in its lifecycle.
 * @param conditions Detailed state, one entry per condition type: {@code Available}, {@code Progressing},
 *     {@code Degraded}, and {@code SourceDrifted} when the source no longer matches the cached copy.
 * @param size Size of the model file, human-readable.
 * @param path Where the model file is stored, when the controller staged it itself.
 * @param cacheKey Key of the model's directory in the model cache: the first 16 hexadecimal digits of the SHA-256 of
 *     the source, so Models with the same source share one cached copy. Empty when the runtime fetches the model
 *     itself.
 * @param sha256 SHA-256 of the model file as computed after download or copy.
 * @param stagedFiles Paths, relative to the source, staged into the cache when {@code files} or {@code mmproj} are
 *     set.
 * @param acceleratorReady Whether the requested hardware acceleration is available.
 * @param gguf Metadata read from the GGUF header.
 * @param sourceETag HTTP ETag of the source at the last check for changes.
 * @param sourceContentLength Size of the source in bytes at the last check for changes.
 * @param lastRevalidated When the source was last checked for changes.
 * @param lastUpdated When the status was last written.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelStatus(
    ModelPhase phase,
    @SchemaPatch(Schemas.CONDITION_LIST) List<Condition> conditions,
    String size,
    String path,
    String cacheKey,
    String sha256,
    List<String> stagedFiles,
    Boolean acceleratorReady,
    GgufMetadata gguf,
    String sourceETag,
    Long sourceContentLength,
    @SchemaPatch(Schemas.DATE_TIME) String lastRevalidated,
    @SchemaPatch(Schemas.DATE_TIME) String lastUpdated) {
}
