package dev.modelplane.operator.app;

import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributesBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks at start-up, with SelfSubjectAccessReviews (which any authenticated identity may create), that the operator
 * holds what it needs where it works — and, when it watches a list of namespaces, that it does not hold the namespaced
 * permissions cluster-wide. Both findings are logged with the fix; neither stops the operator.
 */
public final class AccessCheck {
  private static final Logger LOG = LoggerFactory.getLogger(AccessCheck.class);

  /** A permission: verb on group/resource. */
  record Permission(String verb, String group, String resource) {
    @Override
    public String toString() {
      return verb + " " + (group.isEmpty() ? resource : resource + "." + group);
    }
  }

  /** What the controllers need in every namespace they serve: their informers and their main writes. */
  static final List<Permission> REQUIRED = List.of(
      new Permission("watch", "inference.llmkube.dev", "inferenceservices"),
      new Permission("watch", "inference.llmkube.dev", "models"),
      new Permission("watch", "ome.io", "basemodels"),
      new Permission("watch", "ome.io", "inferenceservices"),
      new Permission("watch", "ome.io", "benchmarkjobs"),
      new Permission("watch", "batch", "jobs"),
      new Permission("watch", "model.otterscale.io", "modelservices"),
      new Permission("watch", "", "pods"),
      new Permission("patch", "apps", "deployments"),
      new Permission("patch", "", "services"),
      new Permission("create", "", "events"));

  /** Namespaced permissions that, held in every namespace, mean the binding is broader than a namespace list needs. */
  static final List<Permission> BROAD = List.of(
      new Permission("watch", "", "pods"),
      new Permission("patch", "apps", "deployments"));

  /**
   * The outcome.
   *
   * @param missing "namespace: permission" entries the operator lacks (namespace "*" = all namespaces)
   * @param clusterWide namespaced permissions held in every namespace although a namespace list is watched
   */
  public record Result(List<String> missing, List<String> clusterWide) {
  }

  private AccessCheck() {
  }

  /**
   * Runs the checks for {@code namespaces} (empty: all namespaces) and logs what is wrong. Returns null, logging at
   * debug level, when the reviews cannot be made (e.g. the API server is not reachable yet).
   */
  public static Result run(KubernetesClient client, Set<String> namespaces) {
    Result result;
    try {
      result = check(client, namespaces);
    } catch (KubernetesClientException e) {
      LOG.atDebug().addKeyValue("error", e.getMessage()).log("access check skipped");
      return null;
    }
    if (!result.missing().isEmpty()) {
      LOG.atError().addKeyValue("missing", result.missing()).log("the operator lacks permissions it needs: bind"
          + " ClusterRole modelplane-operator-namespaced (deploy/operator/rbac.yaml) in each watched namespace, or"
          + " set the Helm value operator.watchNamespaces");
    }
    if (!result.clusterWide().isEmpty()) {
      LOG.atWarn().addKeyValue("namespaces", namespaces).addKeyValue("held_in_every_namespace", result.clusterWide())
          .log("the operator watches a namespace list but holds namespaced permissions cluster-wide: bind them per"
              + " namespace instead (deploy/operator-namespaced, or the Helm value operator.watchNamespaces)");
    }
    return result;
  }

  static Result check(KubernetesClient client, Set<String> namespaces) {
    List<String> missing = new ArrayList<>();
    List<String> where = namespaces.isEmpty() ? List.of("") : List.copyOf(namespaces);
    for (String ns : where) {
      for (Permission p : REQUIRED) {
        if (!allowed(client, p, ns)) {
          missing.add((ns.isEmpty() ? "*" : ns) + ": " + p);
        }
      }
    }
    List<String> clusterWide = new ArrayList<>();
    if (!namespaces.isEmpty()) {
      for (Permission p : BROAD) {
        if (allowed(client, p, "")) {
          clusterWide.add(p.toString());
        }
      }
    }
    return new Result(List.copyOf(missing), List.copyOf(clusterWide));
  }

  private static boolean allowed(KubernetesClient client, Permission p, String namespace) {
    ResourceAttributes attributes = new ResourceAttributesBuilder().withVerb(p.verb()).withGroup(p.group())
        .withResource(p.resource()).withNamespace(namespace).build();
    SelfSubjectAccessReview review = client.authorization().v1().selfSubjectAccessReview().create(
        new SelfSubjectAccessReviewBuilder().withNewSpec().withResourceAttributes(attributes).endSpec().build());
    return review.getStatus() != null && Boolean.TRUE.equals(review.getStatus().getAllowed());
  }
}
