package dev.modelplane.router.pool;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributes;
import io.fabric8.kubernetes.api.model.authorization.v1.ResourceAttributesBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SelfSubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of the policy kinds — InferenceObjective and InferenceModelRewrite, each in {@code llm-d.ai/v1alpha2} and
 * {@code inference.networking.x-k8s.io/v1alpha2} — the API serves and the router may read, asked once, when the API
 * first answers. A kind not served is not watched; one the router may not list and watch is not watched either, with
 * a warning (an informer it may not list would keep discovery from ever syncing). Installing a kind or granting it
 * later needs a router restart. {@link PoolPolicies} decides, per pool,
 * which group's objects apply.
 *
 * @param served the kinds to watch
 */
record PolicyGroups(List<Class<? extends CustomResource<?, ?>>> served) {
  private static final Logger LOG = LoggerFactory.getLogger(PolicyGroups.class);
  private static final List<Class<? extends CustomResource<?, ?>>> KINDS = List.of(
      dev.modelplane.api.llmd.v1alpha2.InferenceObjective.class,
      dev.modelplane.api.gie.v1alpha2.InferenceObjective.class,
      dev.modelplane.api.llmd.v1alpha2.InferenceModelRewrite.class,
      dev.modelplane.api.gie.v1alpha2.InferenceModelRewrite.class);

  /**
   * Asks the API which kinds it serves.
   *
   * @throws io.fabric8.kubernetes.client.KubernetesClientException when the API does not answer
   */
  static PolicyGroups discover(KubernetesClient client, String namespace) {
    List<Class<? extends CustomResource<?, ?>>> served = new ArrayList<>();
    for (Class<? extends CustomResource<?, ?>> kind : KINDS) {
      if (!client.supports(kind)) {
        continue;
      }
      String denied = denied(client, kind, namespace);
      if (denied == null) {
        served.add(kind);
      } else {
        LOG.atWarn().addKeyValue("kind", HasMetadata.getPlural(kind) + "." + HasMetadata.getGroup(kind))
            .addKeyValue("namespace", namespace == null ? "*" : namespace).addKeyValue("missing", denied)
            .log("the router may not read this policy kind, so it ignores it: grant list and watch on it to the"
                + " router's service account");
      }
    }
    PolicyGroups groups = new PolicyGroups(List.copyOf(served));
    LOG.atInfo().addKeyValue("kinds", groups).log("policy kinds watched");
    return groups;
  }

  /**
   * The verb the router's identity lacks on {@code kind}, or null when it may list and watch it. A review the API
   * refuses counts as allowed: the informer then says what is wrong.
   */
  private static String denied(KubernetesClient client, Class<? extends CustomResource<?, ?>> kind, String namespace) {
    for (String verb : List.of("list", "watch")) {
      ResourceAttributes attributes = new ResourceAttributesBuilder().withVerb(verb)
          .withGroup(HasMetadata.getGroup(kind)).withResource(HasMetadata.getPlural(kind))
          .withNamespace(namespace == null ? "" : namespace).build();
      try {
        SelfSubjectAccessReview review = client.authorization().v1().selfSubjectAccessReview().create(
            new SelfSubjectAccessReviewBuilder().withNewSpec().withResourceAttributes(attributes).endSpec().build());
        if (review.getStatus() == null || !Boolean.TRUE.equals(review.getStatus().getAllowed())) {
          return verb;
        }
      } catch (KubernetesClientException e) {
        if (e.getCode() == 0) {
          throw e; // the API is not reachable: discovery is retried
        }
        return null;
      }
    }
    return null;
  }

  /** Whether the kind is of the {@code llm-d.ai} group, whose objects win over the legacy group's for a pool. */
  static boolean preferred(Class<?> kind) {
    return HasMetadata.getGroup(kind.asSubclass(HasMetadata.class))
        .equals(dev.modelplane.api.llmd.v1alpha2.InferenceObjective.GROUP);
  }

  @Override
  public String toString() {
    List<String> names = new ArrayList<>();
    served.forEach(k -> names.add(HasMetadata.getPlural(k) + "." + HasMetadata.getGroup(k)));
    return names.isEmpty() ? "none" : String.join(", ", names);
  }
}
