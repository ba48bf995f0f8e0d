package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.api.common.Schemas;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Required;
import java.util.List;

/**
 * Observed progress of a benchmark run, written by the operator.
 *
 * @param state {@code Pending} until the benchmark job exists, then {@code Running}, and finally {@code Completed}
 *     or {@code Failed}.
 * @param startTime When the benchmark job was started.
 * @param completionTime When the benchmark job finished, successfully or not.
 * @param lastReconcileTime When the operator last changed this status.
 * @param failureMessage Why the run failed, when it did.
 * @param details Further information about the run, for people: what a pending run waits for, or how complete the
 *     results below are.
 * @param modelName The model name the requests carry, as the endpoint lists it in {@code /v1/models}.
 * @param apiBase The base URL the benchmark sends its requests to.
 * @param reportLocation Where the full report of the run is: the output location followed by the result folder.
 * @param results Summary of every iteration, in the order the benchmark ran them (scenario, then concurrency).
 * @param resultsOmitted How many iterations are missing from {@code results} because the summary the benchmark pod
 *     could report was too long; they are in the full report.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchmarkJobStatus(
    @Required BenchmarkState state,
    @SchemaPatch(Schemas.DATE_TIME) String startTime,
    @SchemaPatch(Schemas.DATE_TIME) String completionTime,
    @SchemaPatch(Schemas.DATE_TIME) String lastReconcileTime,
    String failureMessage,
    String details,
    String modelName,
    String apiBase,
    String reportLocation,
    @SchemaPatch(Schemas.ATOMIC_LIST) List<BenchmarkResult> results,
    Integer resultsOmitted) {
}
