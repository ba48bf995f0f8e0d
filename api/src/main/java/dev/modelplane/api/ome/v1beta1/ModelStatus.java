package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;

/**
 * Loading state of the model an InferenceService serves.
 *
 * @param transitionStatus Whether the serving endpoints reflect the current spec; {@code UpToDate} by default.
 * @param modelRevisionStates States of the active and the target model revision.
 * @param lastFailureInfo Details of the last failure to load the target model.
 * @param modelCopies How many copies of the model are loaded.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelStatus(
    @Required @Default("UpToDate") TransitionStatus transitionStatus,
    ModelRevisionStates modelRevisionStates,
    FailureInfo lastFailureInfo,
    ModelCopies modelCopies) {
}
