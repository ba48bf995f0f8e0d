package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;

/**
 * A reference to the KEDA object that authenticates a scaler against its metrics source.
 *
 * @param name Name of the {@code TriggerAuthentication} (in the InferenceService's namespace) or
 *     {@code ClusterTriggerAuthentication}.
 * @param kind Which of the two kinds {@code name} refers to; {@code TriggerAuthentication} by default.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ScalerAuthenticationRef(
    @Required @Size(min = 1) String name,
    @Default("TriggerAuthentication") ScalerAuthenticationKind kind) {
}
