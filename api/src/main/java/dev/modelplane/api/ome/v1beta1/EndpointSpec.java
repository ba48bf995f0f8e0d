package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * What a benchmark sends its requests to: an InferenceService on the cluster, an InferencePool through the router,
 * or an endpoint given by URL; exactly one of them.
 *
 * @param inferenceService An InferenceService (OME's or LLMKube's); its URL is taken from its status, the model name
 *     from its {@code /v1/models}, and the benchmark waits until the service is ready.
 * @param endpoint An endpoint given by URL, with the dialect it speaks and the model name to request.
 * @param inferencePool An InferencePool, reached through modelplane's router; the benchmark waits until the pool has
 *     a ready endpoint.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EndpointSpec(
    InferenceServiceReference inferenceService,
    UrlEndpoint endpoint,
    InferencePoolEndpoint inferencePool) {

  /** An endpoint of one of the two kinds OME knows. */
  public EndpointSpec(InferenceServiceReference inferenceService, UrlEndpoint endpoint) {
    this(inferenceService, endpoint, null);
  }
}
