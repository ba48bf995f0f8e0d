package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Map;

/**
 * An equality-only label selector. Set-based expressions are deliberately not offered: a pool must be cheap to match
 * on every pod event.
 *
 * @param matchLabels Label keys and values a pod must all carry (logical AND).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record PoolSelector(
    @Required
    @Size(max = 64)
    @SchemaPatch("{\"additionalProperties\":{\"type\":\"string\",\"minLength\":0,\"maxLength\":63,"
        + "\"pattern\":\"^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$\"}}")
    Map<String, String> matchLabels) {
}
