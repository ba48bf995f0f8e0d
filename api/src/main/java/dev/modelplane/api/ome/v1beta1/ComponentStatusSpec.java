package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import java.util.List;

/**
 * Observed state of one component of an InferenceService.
 *
 * @param latestReadyRevision The newest revision that became ready (serverless mode).
 * @param latestCreatedRevision The newest revision created: the Deployment's revision number, or the revision
 *     name in serverless mode.
 * @param previousRolledoutRevision The revision that last received all traffic before the latest one (serverless
 *     mode).
 * @param latestRolledoutRevision The newest revision that received all traffic (serverless mode).
 * @param traffic How traffic is split between revisions (serverless mode).
 * @param url The component's URL, e.g. {@code http://<isvc>-engine.<namespace>.<domain>}, once it is available.
 * @param restURL The component's REST endpoint, when it has a separate one.
 * @param address The component's in-cluster address (serverless mode).
 * @param selectedAccelerator The accelerator class chosen for the component.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ComponentStatusSpec(
    String latestReadyRevision,
    String latestCreatedRevision,
    String previousRolledoutRevision,
    String latestRolledoutRevision,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<TrafficTarget> traffic,
    String url,
    String restURL,
    Addressable address,
    AcceleratorSelection selectedAccelerator) {
}
