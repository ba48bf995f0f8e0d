package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * The measurements of one iteration of a benchmark: one traffic scenario at one concurrency level (or, for
 * embedding and rerank tasks, one batch size).
 *
 * @param scenario The traffic scenario, as written in the spec (e.g. {@code D(100,100)}).
 * @param concurrency Requests kept in flight at once.
 * @param batchSize Inputs per request, for tasks that iterate over batch sizes instead of concurrency.
 * @param requests Requests sent, successful or not.
 * @param errorRate Share of the requests that failed, from 0 to 1.
 * @param durationSeconds Length of the measured part of the iteration.
 * @param requestsPerSecond Completed requests per second.
 * @param outputTokensPerSecond Generated tokens per second, over all requests.
 * @param inputTokensPerSecond Prompt tokens per second, over all requests.
 * @param ttftSeconds Time to first token.
 * @param e2eLatencySeconds Time from sending a request to its last token.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record BenchmarkResult(
    String scenario,
    Integer concurrency,
    Integer batchSize,
    Integer requests,
    Double errorRate,
    Double durationSeconds,
    Double requestsPerSecond,
    Double outputTokensPerSecond,
    Double inputTokensPerSecond,
    LatencyPercentiles ttftSeconds,
    LatencyPercentiles e2eLatencySeconds) {
}
