package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;

/**
 * Which pods belong to an InferencePool, on which ports they serve, and which endpoint picker, if any, chooses among
 * them.
 *
 * @param selector Labels a pod must carry to be a member of the pool. Only pods in the pool's namespace are
 *     considered.
 * @param targetPorts The ports on each member pod that accept inference traffic. Every (pod, port) pair is a
 *     separate endpoint, which lets one pod run several data-parallel model-server ranks. Port numbers must be
 *     unique.
 * @param appProtocol The protocol the model servers speak on the target ports: {@code http} (HTTP/1.1, the default)
 *     or {@code kubernetes.io/h2c} (HTTP/2 over cleartext).
 * @param endpointPickerRef The endpoint picker extension that picks a target endpoint for each request. Optional:
 *     without it the gateway implementation chooses the endpoint itself (modelplane's router with its in-process
 *     picker).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record InferencePoolSpec(
    @Required PoolSelector selector,
    @Required
    @Size(min = 1, max = 8)
    @SchemaPatch(Schemas.ATOMIC_LIST)
    @ValidationRule(value = "self.all(p1, self.exists_one(p2, p1.number==p2.number))",
        message = "port number must be unique")
    List<Port> targetPorts,
    @Default("http") AppProtocol appProtocol,
    @ValidationRule(value = "self.kind != 'Service' || has(self.port)",
        message = "port is required when kind is 'Service' or unspecified (defaults to 'Service')")
    EndpointPickerRef endpointPickerRef) {
}
