package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;

/**
 * Observed progress of a benchmark run, written by the operator.
 *
 * @param state {@code Pending} until the benchmark job exists, then {@code Running}, and finally {@code Completed}
 *     or {@code Failed}.
 * @param startTime When the benchmark job was started.
 * @param completionTime When the benchmark job finished, successfully or not.
 * @param lastReconcileTime When the operator last looked at this benchmark.
 * @param failureMessage Why the run failed, when it did.
 * @param details Further information about the run, for people.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchmarkJobStatus(
    @Required BenchmarkState state,
    @SchemaPatch(Schemas.DATE_TIME) String startTime,
    @SchemaPatch(Schemas.DATE_TIME) String completionTime,
    @SchemaPatch(Schemas.DATE_TIME) String lastReconcileTime,
    String failureMessage,
    String details) {
}
