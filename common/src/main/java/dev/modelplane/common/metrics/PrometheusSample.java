package dev.modelplane.common.metrics;

import java.util.Map;

/**
 * One series of a scraped metric.
 *
 * @param labels label names to values
 * @param value sample value
 * @param timestampMs explicit timestamp, 0 when the exposition gives none (as Go's client_model reports it)
 */
public record PrometheusSample(Map<String, String> labels, double value, long timestampMs) {
}
