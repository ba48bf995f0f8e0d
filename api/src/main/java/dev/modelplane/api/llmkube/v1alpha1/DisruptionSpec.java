package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;

/**
 * Protection of inference pods against voluntary node disruption (Karpenter consolidation, cluster-autoscaler
 * scale-down) through the {@code karpenter.sh/do-not-disrupt: "true"} pod annotation. A value for that annotation in
 * {@code podAnnotations} always wins.
 *
 * @param protectStartup Sets the annotation on each inference pod until that pod is Ready (model download and load),
 *     then removes it; the pod template is left alone, so this never restarts pods. True by default, also when
 *     {@code disruption} is not set.
 * @param protectAlways Keeps the annotation on the pod template in every phase, like setting it in
 *     {@code podAnnotations} but managed by the controller; false by default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record DisruptionSpec(
    @Default("true") Boolean protectStartup,
    Boolean protectAlways) {
}
