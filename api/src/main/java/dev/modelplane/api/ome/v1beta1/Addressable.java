package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * An address a service can be reached at inside the cluster.
 *
 * @param name Name of the address, when a service has several.
 * @param url The address, e.g. {@code http://<name>.<namespace>.svc.cluster.local}.
 * @param caCerts PEM-encoded certificate authorities to trust when the address uses TLS.
 * @param audience Audience to request for tokens sent to this address.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Addressable(
    String name,
    String url,
    @JsonProperty("CACerts") String caCerts,
    String audience) {
}
