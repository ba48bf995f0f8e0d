package dev.modelplane.api.gie.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * The pool's state as seen by one parent.
 *
 * @param conditions Conditions of the pool for this parent: {@code Accepted} (the parent accepted the pool as a
 *     backend) and {@code ResolvedRefs} (every reference the pool makes could be resolved).
 * @param parentRef The parent this entry belongs to.
 * @param controllerName The controller that wrote this entry, as {@code DOMAIN/PATH} (e.g.
 *     {@code modelplane.dev/gateway}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ParentStatus(
    @Size(max = 8) @SchemaPatch(Schemas.CONDITION_LIST) List<Condition> conditions,
    @Required ParentReference parentRef,
    @Size(min = 1, max = 253)
    @Pattern("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\\/[A-Za-z0-9\\/\\-._~%!$&'()*+,;=:]+$")
    String controllerName) {
}
