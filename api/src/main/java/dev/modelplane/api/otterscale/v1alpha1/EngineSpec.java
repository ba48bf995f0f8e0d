package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.EnvVar;
import java.util.List;

/**
 * The vLLM container ({@code vllm}) of the decode and prefill pods. The operator starts it as
 * {@code vllm serve <model.mountPath> --port <port> --served-model-name <model.name>}, adds
 * {@code --tensor-parallel-size}, {@code --data-parallel-size} and {@code --data-parallel-size-local} for each
 * parallelism degree above 1, and exports them as {@code TP_SIZE}, {@code DP_SIZE} and {@code DP_SIZE_LOCAL}.
 *
 * @param image The vLLM image. When empty the operator's default engine image is used.
 * @param imagePullPolicy When the kubelet pulls the engine image: {@code Always}, {@code IfNotPresent} or
 *     {@code Never}; Kubernetes' usual default applies when empty.
 * @param args Extra vLLM command-line arguments, placed after the ones the operator generates.
 * @param env Extra environment variables for the vLLM container. Setting {@code VLLM_NIXL_SIDE_CHANNEL_PORT} also
 *     exposes that port as {@code nixl-side} for KV-cache transfer.
 * @param port The port clients and the InferencePool reach the model on, 8000 by default (named {@code http}).
 *     On decode pods with a routing sidecar the sidecar listens here and vLLM moves to
 *     {@code routingProxy.targetPort}; prefill pods always serve on this port directly.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EngineSpec(
    String image,
    ImagePullPolicy imagePullPolicy,
    List<String> args,
    List<EnvVar> env,
    @Default("8000") @Min(1) @Max(65535) Integer port) {
}
