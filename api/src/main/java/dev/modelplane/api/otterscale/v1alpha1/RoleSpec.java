package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.List;
import java.util.Map;

/**
 * One group of serving pods, decode or prefill, run as a Deployment named {@code <name>-decode} or
 * {@code <name>-prefill}. The pods run without a service-account token, as non-root, with the runtime-default
 * seccomp profile and all capabilities dropped.
 *
 * @param replicas How many pods to run, 1 by default; 0 keeps the Deployment but stops its pods.
 * @param parallelism How vLLM spreads the model over the accelerators of one pod; when omitted, every degree is 1.
 *     Pipeline parallelism and multi-node serving are not offered.
 * @param resources CPU and memory for the vLLM container. Leave accelerator devices out: the operator adds the
 *     device resource of {@code accelerator.type}, {@code tensor × dataLocal} of them, to requests and limits.
 * @param nodeSelector Node labels the pods must be scheduled on.
 * @param tolerations Taints the pods tolerate, for example those of dedicated GPU nodes.
 * @param annotations Annotations added to the pod template of this role.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RoleSpec(
    @Default("1") @Min(0) Integer replicas,
    @SchemaPatch("{\"default\":{}}") ParallelismSpec parallelism,
    ResourceRequirements resources,
    Map<String, String> nodeSelector,
    List<Toleration> tolerations,
    Map<String, String> annotations) {
}
