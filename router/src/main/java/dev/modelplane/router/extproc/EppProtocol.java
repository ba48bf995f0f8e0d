package dev.modelplane.router.extproc;

/** Names of the Endpoint Picker Protocol, verbatim. */
public final class EppProtocol {
  /** Filter-metadata namespace of the proxy's subset hint. */
  public static final String SUBSET_FILTER_NAMESPACE = "envoy.lb.subset_hint";
  /** Key of the subset hint list. */
  public static final String SUBSET_FILTER_KEY = "x-gateway-destination-endpoint-subset";
  /** Dynamic-metadata namespace of the destination (and of the served endpoint on the response path). */
  public static final String DESTINATION_ENDPOINT_NAMESPACE = "envoy.lb";
  /** Header and metadata key of the chosen endpoint(s). */
  public static final String DESTINATION_ENDPOINT_KEY = "x-gateway-destination-endpoint";
  /** Metadata key (response path) of the endpoint that actually served the request. */
  public static final String DESTINATION_ENDPOINT_SERVED_KEY = "x-gateway-destination-endpoint-served";
  /** Largest body chunk in one streamed body mutation (GIE's {@code BodyByteLimit}). */
  public static final int BODY_BYTE_LIMIT = 62_000;
  /** Debug header GIE adds on the response path. */
  public static final String RESPONSE_HEADERS_MARKER = "x-went-into-resp-headers";

  private EppProtocol() {
  }
}
