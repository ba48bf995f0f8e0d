package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Required;

/**
 * Names another object by name and, where it is namespaced, namespace.
 *
 * @param name Name of the object.
 * @param namespace Namespace of the object; left out for cluster-scoped objects such as a ClusterBaseModel.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NamespacedObjectReference(@Required String name, String namespace) {
}
