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
 * @param conditions Conditions of the InferenceService. {@code Ready} is true when both {@code EngineReady} and
 *     {@code IngressReady} are; further types are {@code DecoderReady}, {@code RouterReady}, {@code PredictorReady}
 *     and, in serverless mode, {@code <Component>RouteReady}, {@code <Component>ConfigurationReady},
 *     {@code RoutesReady} and {@code LatestDeploymentReady}.
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
