package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Required;

/**
 * States of the model revision being served and of the one being rolled out.
 *
 * @param activeModelState State of the revision that currently serves traffic; {@code Pending} by default.
 * @param targetModelState State of the revision being rolled out; empty when no rollout is under way.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ModelRevisionStates(
    @Required @Default("Pending") ModelState activeModelState,
    @SchemaPatch("{\"default\":\"\"}") ModelState targetModelState) {
}
