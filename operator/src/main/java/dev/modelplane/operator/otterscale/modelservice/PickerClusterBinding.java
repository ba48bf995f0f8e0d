package dev.modelplane.operator.otterscale.modelservice;

import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.event.Level;

/**
 * The endpoint picker's ClusterRoleBinding, which no namespaced owner can own: created (never server-side applied
 * with force) when absent, left alone when it is the ModelService's and as wanted, replaced when it is the
 * ModelService's but differs, and refused — never taken over — when another owner's object has the name. Removal
 * checks the owner too, and also removes the binding an earlier release made under OtterScale's name
 * ({@code <namespace>-<picker>}) when its subject is this ModelService's picker. The operator may create, read and
 * delete ClusterRoleBindings but not change them, and may bind only {@value ModelServiceNames#PICKER_CLUSTER_ROLE}.
 */
final class PickerClusterBinding {
  private static final Logger LOG = LoggerFactory.getLogger(PickerClusterBinding.class);

  /**
   * What {@link #ensure} found.
   *
   * @param refusal why the binding was not made (another owner's object has its name), or null
   * @param error an API error, or null
   * @param conflict a concurrent change: try again soon
   */
  record Outcome(String refusal, String error, boolean conflict) {
    static final Outcome OK = new Outcome(null, null, false);
  }

  private PickerClusterBinding() {
  }

  /** Makes {@code wanted} exist, for the ModelService {@code names}. */
  static Outcome ensure(KubernetesClient client, ModelServiceNames names, ClusterRoleBinding wanted) {
    String name = wanted.getMetadata().getName();
    try {
      ClusterRoleBinding existing = client.rbac().clusterRoleBindings().withName(name).get();
      if (existing != null) {
        if (!ownedBy(existing, names)) {
          return new Outcome("ClusterRoleBinding " + name + " exists and is not this ModelService's (annotation "
              + ModelServiceNames.OWNER_ANNOTATION + " is '" + annotation(existing) + "', not '" + names.owner()
              + "'); it is left alone and the endpoint picker gets no token reviews", null, false);
        }
        if (Objects.equals(existing.getRoleRef(), wanted.getRoleRef())
            && Objects.equals(existing.getSubjects(), wanted.getSubjects())) {
          return Outcome.OK;
        }
        // The role reference cannot change, and the operator may not update bindings: delete, then create.
        client.rbac().clusterRoleBindings().withName(name).delete();
      }
      client.rbac().clusterRoleBindings().resource(wanted).create();
      LOG.atInfo().addKeyValue("modelservice", names.owner()).addKeyValue("clusterrolebinding", name)
          .log("created");
      return Outcome.OK;
    } catch (KubernetesClientException e) {
      if (e.getCode() == 409) {
        return new Outcome(null, null, true);
      }
      LOG.atWarn().addKeyValue("modelservice", names.owner()).addKeyValue("clusterrolebinding", name)
          .addKeyValue("error", e.getMessage()).log("apply failed");
      return new Outcome(null, e.getStatus() != null && e.getStatus().getMessage() != null
          ? e.getStatus().getMessage() : e.getMessage(), false);
    }
  }

  /** Removes the ModelService's binding and its earlier-release binding, leaving other owners' objects alone. */
  static void remove(KubernetesClient client, ModelServiceNames names) {
    delete(client, names, names.pickerClusterBinding(), b -> ownedBy(b, names));
    removeLegacy(client, names);
  }

  /** Removes the binding an earlier release made for this ModelService under OtterScale's name, if any. */
  static void removeLegacy(KubernetesClient client, ModelServiceNames names) {
    delete(client, names, names.legacyPickerClusterRbac(), b -> legacyOf(b, names));
  }

  /** The binding carries this ModelService's owner annotation. */
  static boolean ownedBy(ClusterRoleBinding binding, ModelServiceNames names) {
    return names.owner().equals(annotation(binding));
  }

  /**
   * The binding is the one an earlier release made for this ModelService: OtterScale's labels with its picker's name,
   * a role of the binding's own name, and the picker's ServiceAccount as the only subject. (The legacy name alone is
   * ambiguous — {@code team} + {@code x-y} and {@code team-x} + {@code y} share it — but the subject is not.)
   */
  static boolean legacyOf(ClusterRoleBinding binding, ModelServiceNames names) {
    Map<String, String> labels = binding.getMetadata().getLabels() == null ? Map.of()
        : binding.getMetadata().getLabels();
    List<Subject> subjects = binding.getSubjects() == null ? List.of() : binding.getSubjects();
    return names.picker().equals(labels.get(ModelServiceNames.NAME))
        && ModelServiceNames.MANAGED_BY_VALUE.equals(labels.get(ModelServiceNames.MANAGED_BY))
        && ModelServiceNames.PICKER_COMPONENT.equals(labels.get(ModelServiceNames.COMPONENT))
        && binding.getRoleRef() != null && binding.getMetadata().getName().equals(binding.getRoleRef().getName())
        && subjects.size() == 1 && "ServiceAccount".equals(subjects.get(0).getKind())
        && names.picker().equals(subjects.get(0).getName())
        && names.namespace().equals(subjects.get(0).getNamespace());
  }

  private static void delete(KubernetesClient client, ModelServiceNames names, String name,
      Predicate<ClusterRoleBinding> ours) {
    try {
      ClusterRoleBinding existing = client.rbac().clusterRoleBindings().withName(name).get();
      if (existing == null) {
        return;
      }
      if (!ours.test(existing)) {
        LOG.atDebug().addKeyValue("modelservice", names.owner()).addKeyValue("clusterrolebinding", name)
            .log("not this ModelService's, left alone");
        return;
      }
      client.rbac().clusterRoleBindings().withName(name).delete();
      LOG.atInfo().addKeyValue("modelservice", names.owner()).addKeyValue("clusterrolebinding", name)
          .log("deleted");
    } catch (KubernetesClientException e) {
      // Forbidden: an operator installed without the pickers' binding rights, which then made none to remove.
      LOG.atLevel(e.getCode() == 403 ? Level.DEBUG : Level.WARN)
          .addKeyValue("modelservice", names.owner()).addKeyValue("clusterrolebinding", name)
          .addKeyValue("error", e.getMessage()).log("delete failed");
    }
  }

  private static String annotation(ClusterRoleBinding binding) {
    Map<String, String> annotations = binding.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(ModelServiceNames.OWNER_ANNOTATION);
  }
}
