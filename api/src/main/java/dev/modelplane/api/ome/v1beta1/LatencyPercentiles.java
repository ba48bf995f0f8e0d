package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * Distribution of one latency over the requests of an iteration, in seconds.
 *
 * @param mean Arithmetic mean.
 * @param p50 Median.
 * @param p90 90th percentile.
 * @param p99 99th percentile.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record LatencyPercentiles(Double mean, Double p50, Double p90, Double p99) {
}
