package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * Points a benchmark at an InferencePool, reached through modelplane's router, so that the measurements include the
 * router's endpoint picking. Requests go to {@code <routerUrl>/inference-pools/<namespace>/<name>/v1/...}.
 *
 * @param name Name of the InferencePool.
 * @param namespace Namespace of the InferencePool.
 * @param routerUrl Base URL of the router's OpenAI gateway serving the pool, {@code http://} or {@code https://};
 *     the operator's default router URL when not set.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferencePoolEndpoint(
    @Required String name,
    @Required String namespace,
    @Pattern("^(http|https)://") String routerUrl) {
}
