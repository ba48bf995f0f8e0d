package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.api.llmkube.v1alpha1.PersonaPlexConfig;
import dev.modelplane.api.llmkube.v1alpha1.ProbeOverrides;
import dev.modelplane.api.llmkube.v1alpha1.SglangConfig;
import dev.modelplane.api.llmkube.v1alpha1.TgiConfig;
import dev.modelplane.api.llmkube.v1alpha1.VllmConfig;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.List;

/**
 * What a model server should look like, whichever API asked for it (an LLMKube InferenceService, an OME runtime, an
 * OtterScale ModelService): the renderers turn it into a container. Every field may be null (the runtime's default).
 * The per-runtime option records are plain data shared with the LLMKube API, which spells them out field by field.
 *
 * @param image the container image; wins over the operator's override and the runtime's default
 * @param command the entrypoint, replacing the runtime's
 * @param args the whole argument list, for the generic runtime
 * @param env environment appended after the runtime's own
 * @param extraArgs flags appended after every generated flag, so they win
 * @param bindAddress the address the server binds ({@code ::} when unset)
 * @param containerPort the port the server listens on
 * @param endpointPort the port clients use, the listen port when {@code containerPort} is unset
 * @param mode what the server serves (chat when null)
 * @param servedModelName the model name clients send
 * @param probeOverrides replacements for the runtime's health probes
 * @param parallelSlots concurrent sequences the server runs
 * @param llamaCpp llama.cpp tuning
 * @param vllm vLLM options
 * @param sglang SGLang options
 * @param tgi Text Generation Inference options
 * @param personaPlex PersonaPlex options
 */
public record ServerSpec(String image, List<String> command, List<String> args, List<EnvVar> env,
    List<String> extraArgs, String bindAddress, Integer containerPort, Integer endpointPort, ServingModes.Mode mode,
    String servedModelName, ProbeOverrides probeOverrides, Integer parallelSlots, LlamaCppOptions llamaCpp,
    VllmConfig vllm, SglangConfig sglang, TgiConfig tgi, PersonaPlexConfig personaPlex) {

  public ServerSpec {
    llamaCpp = llamaCpp == null ? LlamaCppOptions.NONE : llamaCpp;
    mode = mode == null ? ServingModes.Mode.CHAT : mode;
  }
}
