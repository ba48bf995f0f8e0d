package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;

/**
 * What went wrong the last time the model failed to load.
 *
 * @param location Where the failure happened, usually a pod name.
 * @param reason The broad cause.
 * @param message The detailed error message.
 * @param modelRevisionName The model revision that failed.
 * @param time When the failure happened or was noticed (RFC 3339).
 * @param exitCode Exit code of the model-server container's last termination.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record FailureInfo(
    String location,
    FailureReason reason,
    String message,
    String modelRevisionName,
    @SchemaPatch(Schemas.DATE_TIME) String time,
    Integer exitCode) {
}
