package dev.modelplane.operator.ome.benchmark;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a BenchmarkJob may target something in another namespace: only where a Gateway API {@code ReferenceGrant}
 * in the target's namespace allows BenchmarkJobs ({@code ome.io}) of the benchmark's namespace to refer to it.
 * Otherwise a tenant could have the operator read another namespace's services, pods and models with its own rights
 * and run its image against them. Without the ReferenceGrant CRD no grant can exist, so every such target is
 * refused.
 */
final class ReferenceGrants {
  /** Gateway API's ReferenceGrant. */
  static final ResourceDefinitionContext KIND = new ResourceDefinitionContext.Builder()
      .withGroup("gateway.networking.k8s.io").withVersion("v1beta1").withKind("ReferenceGrant")
      .withPlural("referencegrants").withNamespaced(true).build();
  /** The group and kind grants name as {@code from}. */
  static final String FROM_GROUP = "ome.io";
  static final String FROM_KIND = "BenchmarkJob";

  private ReferenceGrants() {
  }

  /**
   * The ReferenceGrants of a namespace.
   */
  @FunctionalInterface
  interface Lister {
    /**
     * The grants in {@code namespace}, or null when the ReferenceGrant CRD is not installed.
     *
     * @throws KubernetesClientException when they cannot be read
     */
    List<GenericKubernetesResource> list(String namespace);
  }

  /** Lists from the API server: one list call per cross-namespace target and reconcile. */
  static Lister of(KubernetesClient client) {
    return namespace -> {
      try {
        return client.genericKubernetesResources(KIND).inNamespace(namespace).list().getItems();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return null;
        }
        throw e;
      }
    };
  }

  /**
   * What a benchmark refers to.
   *
   * @param group its API group
   * @param kind its kind
   * @param namespace its namespace
   * @param name its name
   */
  record Target(String group, String kind, String namespace, String name) {
    String describe() {
      return kind + " " + namespace + "/" + name + " (" + group + ")";
    }
  }

  /**
   * Null when a BenchmarkJob in {@code from} may refer to {@code target}: the same namespace, or a grant there allows
   * it. Otherwise why not, for people: what is missing and the grant that would allow it.
   */
  static String refusal(Lister grants, String from, Target target) {
    if (from.equals(target.namespace())) {
      return null;
    }
    String what = target.describe() + " is in another namespace than this BenchmarkJob (" + from + ")";
    List<GenericKubernetesResource> found;
    try {
      found = grants.list(target.namespace());
    } catch (KubernetesClientException e) {
      return what + ", and the operator cannot read the ReferenceGrants of " + target.namespace() + " (HTTP "
          + e.getCode() + ")";
    }
    if (found == null) {
      return what + ": that needs a ReferenceGrant (" + KIND.getGroup() + "/" + KIND.getVersion() + ") in "
          + target.namespace() + ", and the ReferenceGrant CRD is not installed";
    }
    if (found.stream().anyMatch(g -> grants(g, from, target))) {
      return null;
    }
    return what + ", and no ReferenceGrant in " + target.namespace() + " allows it: one there with from [{group: "
        + FROM_GROUP + ", kind: " + FROM_KIND + ", namespace: " + from + "}] and to [{group: " + target.group()
        + ", kind: " + target.kind() + ", name: " + target.name() + "}] would";
  }

  /** Whether {@code grant} lets BenchmarkJobs of {@code from} refer to {@code target}, as Gateway API defines it. */
  static boolean grants(GenericKubernetesResource grant, String from, Target target) {
    if (grant.getMetadata() == null || !Objects.equals(grant.getMetadata().getNamespace(), target.namespace())
        || !(grant.getAdditionalProperties().get("spec") instanceof Map<?, ?> spec)) {
      return false;
    }
    boolean fromMatches = entries(spec.get("from")).stream().anyMatch(f -> FROM_GROUP.equals(f.get("group"))
        && FROM_KIND.equals(f.get("kind")) && from.equals(f.get("namespace")));
    boolean toMatches = entries(spec.get("to")).stream().anyMatch(t -> target.group().equals(t.get("group"))
        && target.kind().equals(t.get("kind"))
        && (t.get("name") == null || "".equals(t.get("name")) || target.name().equals(t.get("name"))));
    return fromMatches && toMatches;
  }

  private static List<Map<?, ?>> entries(Object list) {
    if (!(list instanceof List<?> l)) {
      return List.of();
    }
    return l.stream().filter(Map.class::isInstance).<Map<?, ?>>map(Map.class::cast).toList();
  }
}
