package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An address a service can be reached at inside the cluster.
 *
 * @param name Name of the address, when a service has several.
 * @param url The address, e.g. {@code http://<name>.<namespace>.svc.cluster.local}.
 * @param CACerts PEM-encoded certificate authorities to trust when the address uses TLS.
 * @param audience Audience to request for tokens sent to this address.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
// CACerts keeps the wire name of Knative's addressable type, hence the capitalised component name.
public record Addressable(
    String name,
    String url,
    String CACerts,
    String audience) {
}
