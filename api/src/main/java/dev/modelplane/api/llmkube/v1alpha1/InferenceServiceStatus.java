package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.LabelSelector;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.List;

/**
 * The observed state of an InferenceService.
 *
 * @param phase Where the service is in its lifecycle. {@code Stopped} (scaled to zero) and {@code Suspended} (held at
 *     zero by {@code spec.suspend}) are deliberate and should be treated like {@code Pending}, not as errors.
 * @param conditions Detailed state, one entry per condition type: {@code Available}, {@code Progressing} and
 *     {@code Degraded}, plus specific ones such as {@code GPUAvailable} or {@code MemoryPressure}.
 * @param modelReady Whether the referenced Model is Ready.
 * @param endpoint URL that accepts inference requests, for example
 *     {@code http://NAME.NAMESPACE.svc.cluster.local:8080/v1/chat/completions}.
 * @param replicas Number of inference pods currently running; the count the {@code /scale} subresource reports.
 * @param readyReplicas Number of inference pods that are ready.
 * @param desiredReplicas Number of pods the service should have right now: {@code spec.replicas}, or 0 while
 *     suspended.
 * @param selector Label selector, in string form, matching the service's pods. The {@code /scale} subresource
 *     publishes it so that HorizontalPodAutoscalers and KEDA can find the pods (and their metrics).
 * @param effectivePriority Numeric priority of the PriorityClass that {@code spec.priority} selects.
 * @param queuePosition Place among all InferenceServices in the cluster waiting for a GPU, counted from 1 in order of
 *     creation; 0 when not waiting.
 * @param schedulingStatus Short reason why pods cannot be scheduled, for example {@code InsufficientGPU}.
 * @param schedulingMessage Details of the scheduling problem.
 * @param waitingFor The resource the service is waiting for, for example {@code nvidia.com/gpu: 1}.
 * @param lastUpdated When the status was last written.
 * @param mode The serving mode in effect ({@code chat}, {@code embedding} or {@code rerank}): {@code spec.mode}, or
 *     the mode inferred from the runtime flags and the endpoint path.
 * @param acceleration Where the model server placed the model when it loaded; absent when unknown.
 * @param gateway Result of the Envoy AI Gateway exposure; only present when {@code spec.endpoint.gateway} is
 *     enabled.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceServiceStatus(
    InferenceServicePhase phase,
    @SchemaPatch(Schemas.CONDITION_LIST) List<Condition> conditions,
    Boolean modelReady,
    String endpoint,
    @StatusReplicas Integer replicas,
    Integer readyReplicas,
    Integer desiredReplicas,
    @LabelSelector String selector,
    Integer effectivePriority,
    Integer queuePosition,
    String schedulingStatus,
    String schedulingMessage,
    String waitingFor,
    @SchemaPatch(Schemas.DATE_TIME) String lastUpdated,
    String mode,
    AccelerationStatus acceleration,
    GatewayStatus gateway) {
}
