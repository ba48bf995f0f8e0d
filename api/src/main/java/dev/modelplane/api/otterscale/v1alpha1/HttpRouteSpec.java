package dev.modelplane.api.otterscale.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.List;

/**
 * Where the model's HTTPRoute (named like the ModelService) attaches. The route has a single rule: requests whose
 * {@code OtterScale-Model-Name} header equals the ModelService's name, on any path, go to the model's
 * InferencePool, where the endpoint picker chooses the pod.
 *
 * @param gatewayRef The Gateway the route attaches to.
 * @param hostnames Host names the route answers, in Gateway API form (an optional leading {@code *.} wildcard
 *     label); all host names when empty.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record HttpRouteSpec(
    @Required GatewayRef gatewayRef,
    @Size(max = 16)
    @SchemaPatch("{\"items\":{\"minLength\":1,\"maxLength\":253,"
        + "\"pattern\":\"^(\\\\*\\\\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$\"}}")
    List<String> hostnames) {
}
