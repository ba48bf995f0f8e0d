package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * Observed state of a base model or of fine-tuned weights, aggregated from what the model agent reports for each
 * node.
 *
 * @param lifecycle Publication stage of the model, as a free-form label; conventional values are
 *     {@code Deprecated}, {@code Experiment}, {@code Public} and {@code Internal}.
 * @param state Overall state: {@code Ready} as soon as one node holds a complete copy, {@code Failed} when none does
 *     and some node failed, {@code In_Transit} while copies are still being made; {@code Creating},
 *     {@code Importing} and {@code In_Training} describe earlier stages.
 * @param nodesReady Names of the nodes that hold a complete, verified copy, sorted.
 * @param nodesFailed Names of the nodes where obtaining a copy failed, sorted.
 * @param observedGeneration The {@code metadata.generation} this status was computed from.
 * @param conditions Conditions beyond the state: {@code Ready} (a node holds a complete copy; the message counts
 *     them) and {@code Degraded} (the spec cannot be served as written, or some node failed; the message names the
 *     field or lists each failed node with its reason).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelStatusSpec(
    String lifecycle,
    @Required LifeCycleState state,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> nodesReady,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> nodesFailed,
    Long observedGeneration,
    @SchemaPatch(Schemas.CONDITION_LIST) List<Condition> conditions) {
}
