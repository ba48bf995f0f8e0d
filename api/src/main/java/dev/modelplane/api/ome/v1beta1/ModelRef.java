package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/**
 * The model an InferenceService serves, by name. A BaseModel of that name in the InferenceService's namespace is
 * used if there is one, else the ClusterBaseModel of that name.
 *
 * @param name Name of the BaseModel or ClusterBaseModel.
 * @param kind Kind of the referenced model, {@code ClusterBaseModel} by default. Upstream OME looks the name up in
 *     the namespace first and then at cluster scope whatever this says.
 * @param apiGroup API group of the referenced model, {@code ome.io} by default.
 * @param fineTunedWeights Names of FineTunedWeights to apply on top of the base model. Only one is supported at
 *     present (stacking several is not).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelRef(
    @Required String name,
    @Default("ClusterBaseModel") String kind,
    @Default("ome.io") String apiGroup,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<String> fineTunedWeights) {
}
