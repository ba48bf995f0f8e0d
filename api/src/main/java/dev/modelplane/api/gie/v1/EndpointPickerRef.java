package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A reference to the endpoint picker (EPP) extension that serves a pool.
 *
 * @param group API group of the referent; empty means the core group.
 * @param kind Kind of the referent, {@code Service} by default. Other kinds are implementation-specific.
 * @param name Name of the referent, in the pool's namespace.
 * @param port Port of the picker's gRPC ext_proc service. Required when the referent is a Service.
 * @param failureMode What the gateway does when the picker does not answer: {@code FailClose} (default) rejects the
 *     request, {@code FailOpen} forwards it to an endpoint of the gateway's own choosing.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EndpointPickerRef(
    @SchemaPatch("{\"default\":\"\"}")
    @Size(min = 0, max = 253)
    @Pattern("^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")
    String group,
    @Default("Service")
    @Size(min = 1, max = 63)
    @Pattern("^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$")
    String kind,
    @Required @Size(min = 1, max = 253) String name,
    Port port,
    @Default("FailClose") FailureMode failureMode) {
}
