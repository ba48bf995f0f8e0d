package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/**
 * Which pool's requests are rewritten, and how.
 *
 * @param poolRef The InferencePool, in the same namespace, whose requests this rewrite applies to.
 * @param rules The rewrite rules. When several rules match a request, one naming the model exactly beats one without
 *     matches; between two rewrites of the same pool the older object wins; within one rewrite, the earlier rule.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceModelRewriteSpec(
    @Required PoolObjectReference poolRef,
    @Required List<InferenceModelRewriteRule> rules) {
}
