package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a benchmark sends its requests to: either an InferenceService on the cluster or an endpoint given by URL,
 * never both.
 *
 * @param inferenceService An InferenceService; its URL, API dialect and tokenizer are taken from the service and its
 *     model, and the benchmark waits until the service is ready.
 * @param endpoint An endpoint given by URL, with the dialect it speaks and the model name to request.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EndpointSpec(InferenceServiceReference inferenceService, UrlEndpoint endpoint) {
}
