package dev.modelplane.operator.ome.isvc;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBindingBuilder;
import io.fabric8.kubernetes.api.model.rbac.RoleBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The identity of a router: ServiceAccount, Role and RoleBinding {@code <isvc>-router}, letting routers that find
 * their backends by label (SGLang's, ours) read the namespace's pods — and, for the default router, its
 * InferencePool and InferenceObjectives.
 */
final class RouterAccess {
  private RouterAccess() {
  }

  static String name(String isvc) {
    return dev.modelplane.operator.common.Names.child(isvc, "router");
  }

  static List<HasMetadata> objects(String isvc, String namespace, Map<String, String> labels,
      boolean defaultRouter) {
    String name = name(isvc);
    List<PolicyRule> rules = new ArrayList<>();
    rules.add(new PolicyRuleBuilder().withApiGroups("").withResources("pods").withVerbs("list", "watch")
        .build());
    if (defaultRouter) {
      rules.addAll(DefaultRouter.extraRules());
    }
    return List.of(
        new ServiceAccountBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().build(),
        new RoleBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata().withRules(rules).build(),
        new RoleBindingBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
            .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("Role").withName(name).endRoleRef()
            .addNewSubject().withKind("ServiceAccount").withName(name).withNamespace(namespace).endSubject().build());
  }
}
