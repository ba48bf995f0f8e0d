package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.LocalObjectReference;
import java.util.List;

/**
 * The model artifact and the identity it is served under.
 *
 * @param name The model id clients use in OpenAI-style requests (for example {@code qwen/Qwen3-32B}); vLLM
 *     receives it as {@code --served-model-name}. Routing does not use it: the HTTPRoute matches the
 *     {@code OtterScale-Model-Name} header against the ModelService's own name.
 * @param image OCI reference of the ModelPack or ModelKit artifact that holds the weights, for example
 *     {@code registry.example.com/models/qwen3-32b:v1}. A {@code model-unpack} init container pulls it with
 *     {@code kit unpack} into an emptyDir on every pod start (plain HTTP to the registry is allowed); there is no
 *     node-level cache.
 * @param mountPath Directory in the serving containers that receives the unpacked model, {@code /models} by
 *     default. It is also the model argument given to {@code vllm serve}.
 * @param imagePullSecrets Registry credentials, added to the serving pods' image pull secrets. The first one is
 *     also mounted as the Docker config that {@code kit} uses to pull the artifact; any further ones are not used
 *     for the artifact.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelSpec(
    @Required @Size(min = 1, max = 253) String name,
    @Required @Size(min = 1) String image,
    @Default("/models") String mountPath,
    List<LocalObjectReference> imagePullSecrets) {
}
