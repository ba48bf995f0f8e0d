package dev.modelplane.api.gie.v1alpha2;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;

/**
 * A model name a rewritten request may be sent on with, and its share of the rule's requests.
 *
 * @param weight This target's share of the rule's requests, relative to the sum of the weights of all the rule's
 *     targets (1 to 1,000,000; the weights need not add up to 100). Give every target of a rule a weight, or none:
 *     targets without weights share the requests equally.
 * @param modelRewrite The model name the request is sent on with.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TargetModel(@Min(1) @Max(1000000) Integer weight, @Required String modelRewrite) {
}
