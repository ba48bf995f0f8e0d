package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;
import java.util.Map;

/**
 * Observed state of an InferenceService.
 *
 * @param observedGeneration The {@code metadata.generation} this status was computed from.
 * @param conditions Conditions of the InferenceService. {@code Ready} is true when the runtime is chosen
 *     ({@code RuntimeSelected}), the service is reachable ({@code IngressReady}) and each declared component is
 *     ready ({@code EngineReady}, {@code DecoderReady}, {@code RouterReady}; a serverless one follows its Knative
 *     Service's {@code Ready}). {@code ModelResolved} is false while the model or fine-tuned weight cannot be used,
 *     and {@code PrecisePrefixRouting} says how precise prefix-cache routing was set up. The deprecated
 *     predictor form is served as the engine ({@code EngineReady}); Knative's route and configuration conditions
 *     are not copied.
 * @param annotations Annotations recorded by the controller.
 * @param url Where clients reach the service, e.g. {@code http://<name>.<namespace>.svc.cluster.local:8080}, or
 *     the ingress host when an ingress is created.
 * @param address The in-cluster address of the service.
 * @param components Per-component state, keyed {@code engine}, {@code decoder}, {@code router} or
 *     {@code predictor}.
 * @param modelStatus Loading state of the served model.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceServiceStatus(
    Long observedGeneration,
    @SchemaPatch(Schemas.CONDITION_LIST) List<Condition> conditions,
    Map<String, String> annotations,
    String url,
    Addressable address,
    Map<String, ComponentStatusSpec> components,
    ModelStatus modelStatus) {
}
