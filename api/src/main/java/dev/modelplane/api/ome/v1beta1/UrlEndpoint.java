package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;

/**
 * An inference endpoint reached by URL, inside or outside the cluster.
 *
 * @param url Base URL of the API, starting with {@code http://} or {@code https://}.
 * @param apiFormat Dialect the endpoint speaks: {@code openai}, {@code oci-cohere} or {@code cohere}.
 * @param modelName Model name to put into each request, for APIs that route by model (the OpenAI API requires one).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record UrlEndpoint(
    @Required @Pattern("^(http|https)://") String url,
    @Required ApiFormat apiFormat,
    String modelName) {
}
