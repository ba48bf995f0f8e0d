package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * One rewrite: the requests it applies to and the model names they are sent on with.
 *
 * @param matches The model names the rule applies to; one matching entry is enough. Without entries the rule applies
 *     to every request of the pool that no exact rule claims.
 * @param targets The model names a matching request may be rewritten to, one picked per request in proportion to the
 *     weights.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferenceModelRewriteRule(
    List<ModelRewriteMatch> matches,
    @Size(min = 1) List<TargetModel> targets) {
}
