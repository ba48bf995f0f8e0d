package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * The model to serve, the runtime to serve it with, and the components to deploy.
 *
 * @param predictor Deprecated single-component form; converted to {@code engine}, {@code model} and
 *     {@code runtime}. Use those instead.
 * @param engine The model-server pods. Required for serving (directly or through {@code predictor}); its
 *     settings are merged over the runtime's {@code engineConfig}.
 * @param decoder Token-generation pods for prefill-decode disaggregated serving, merged over the runtime's
 *     {@code decoderConfig}. Needs an engine, which then handles the prefill phase.
 * @param model The model to serve.
 * @param runtime The serving runtime to use. When unset, the best runtime for the model is chosen among those that
 *     allow auto-selection, by format, framework, architecture, quantization, size and accelerator; namespaced
 *     runtimes come before cluster-scoped ones.
 * @param router Request-routing pods in front of the engine (and decoder), merged over the runtime's
 *     {@code routerConfig}.
 * @param kedaConfig KEDA autoscaling settings for the InferenceService's components, used when the annotation
 *     {@code ome.io/autoscalerClass} is {@code keda}.
 * @param acceleratorSelector The accelerator class for all components; a component's
 *     {@code acceleratorOverride} takes precedence.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!has(self.decoder) || has(self.engine) || has(self.predictor)",
    message = "decoder cannot be specified without engine")
public record InferenceServiceSpec(
    PredictorSpec predictor,
    EngineSpec engine,
    DecoderSpec decoder,
    ModelRef model,
    ServingRuntimeRef runtime,
    RouterSpec router,
    KedaConfig kedaConfig,
    AcceleratorSelector acceleratorSelector) {
}
