package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * What the controller last observed, derived from the serving Deployments (the endpoint picker's readiness is not
 * taken into account).
 *
 * @param observedGeneration The {@code metadata.generation} this status was computed from.
 * @param phase Summary of the serving pods: {@code Pending} while a serving Deployment is missing,
 *     {@code Running} while none or only some replicas are ready, {@code Ready} once every desired decode (and
 *     prefill) replica is ready, {@code Failed} when serving cannot proceed.
 * @param decodeReady Ready pods of the decode Deployment.
 * @param decodeReplicas Desired pods of the decode Deployment.
 * @param prefillReady Ready pods of the prefill Deployment; absent without prefill.
 * @param prefillReplicas Desired pods of the prefill Deployment; absent without prefill.
 * @param conditions Conditions of the ModelService. {@code Ready} is True with reason {@code AllReplicasReady};
 *     False with {@code DeploymentNotFound}, {@code PodsStarting} or {@code PartiallyReady} while the pods come
 *     up; and False with {@code ReconcileError} when creating or updating an owned object failed.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelServiceStatus(
    Long observedGeneration,
    ModelServicePhase phase,
    Integer decodeReady,
    Integer decodeReplicas,
    Integer prefillReady,
    Integer prefillReplicas,
    @SchemaPatch(Schemas.CONDITION_LIST) List<Condition> conditions) {
}
