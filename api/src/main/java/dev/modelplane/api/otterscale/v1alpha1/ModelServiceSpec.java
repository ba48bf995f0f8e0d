package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * How a model is served. Without {@code prefill} every request is handled end to end by the decode pods
 * (aggregated serving). With {@code prefill}, prompt processing and token generation run in separate pod groups:
 * the endpoint picker switches to its prefill/decode plugin set and the decode pods get the routing sidecar, which
 * hands the prompt to a prefill pod and receives the KV cache back.
 *
 * @param model The model artifact to serve and the name clients address it by.
 * @param engine The vLLM container of the serving pods: image, extra arguments and environment, port.
 * @param accelerator The kind of accelerator the serving pods run on; decides which device resource is requested.
 * @param decode The decode pods. Without {@code prefill} these are the only serving pods and handle whole
 *     requests.
 * @param prefill Optional separate prefill pods. Setting it turns on prefill/decode disaggregation; removing it
 *     deletes the prefill Deployment and switches the endpoint picker back to the aggregated configuration.
 * @param routingProxy The llm-d routing sidecar added to the decode pods. Must be set together with
 *     {@code prefill}: it is the component that sends prompts to the prefill pods. It may also be set without
 *     {@code prefill}.
 * @param inferencePool Settings of the endpoint picker that serves this model's InferencePool. The picker, the
 *     pool and their supporting objects exist whether or not this is set; when it is omitted the operator's
 *     defaults apply (default image, one replica, port 9002, and a pool that fails closed), and no metrics-reader
 *     RBAC, token Secret or ServiceMonitor is created for the picker.
 * @param httpRoute The Gateway the model's HTTPRoute attaches to and the hostnames it answers. When omitted, the
 *     route attaches to the operator's default Gateway (if the operator has one configured). The route always
 *     targets this model's InferencePool.
 * @param monitoring Prometheus scraping of the serving pods and the endpoint picker.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.prefill) || has(self.routingProxy)",
    message = "spec.routingProxy is required when spec.prefill is set: decode pods need the routing sidecar to"
        + " hand prompts to the prefill pods")
@ValidationRule(value = "!has(self.routingProxy) || !has(self.routingProxy.targetPort) || !has(self.engine.port)"
    + " || self.routingProxy.targetPort != self.engine.port",
    message = "spec.routingProxy.targetPort must differ from spec.engine.port: the routing sidecar listens on"
        + " engine.port and vLLM on targetPort in the same pod")
public record ModelServiceSpec(
    @Required ModelSpec model,
    @Required EngineSpec engine,
    @Required AcceleratorSpec accelerator,
    @Required RoleSpec decode,
    RoleSpec prefill,
    RoutingProxySpec routingProxy,
    InferencePoolSpec inferencePool,
    HttpRouteSpec httpRoute,
    MonitoringSpec monitoring) {
}
