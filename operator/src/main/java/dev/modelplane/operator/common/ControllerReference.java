package dev.modelplane.operator.common;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The owner reference a Kubernetes controller puts on what it creates ({@code controller: true},
 * {@code blockOwnerDeletion: true}), as LLMKube's {@code SetControllerReference} does. JOSDK's dependents add a plain
 * owner reference (neither flag), which garbage collection honours but tools looking for an object's controller
 * ({@code kubectl describe}'s "Controlled By", foreground deletion) do not.
 */
public final class ControllerReference {
  private ControllerReference() {
  }

  /** The controller reference to {@code owner}. */
  public static OwnerReference of(HasMetadata owner) {
    return new OwnerReferenceBuilder().withApiVersion(owner.getApiVersion()).withKind(owner.getKind())
        .withName(owner.getMetadata().getName()).withUid(owner.getMetadata().getUid()).withController(true)
        .withBlockOwnerDeletion(true).build();
  }

  /** Makes {@code owner} the controller of {@code object}, replacing any reference to it; others are kept. */
  public static void set(HasMetadata object, HasMetadata owner) {
    List<OwnerReference> refs = new ArrayList<>();
    for (OwnerReference ref : object.getMetadata().getOwnerReferences()) {
      if (!Objects.equals(ref.getUid(), owner.getMetadata().getUid())) {
        refs.add(ref);
      }
    }
    refs.add(of(owner));
    object.getMetadata().setOwnerReferences(refs);
  }
}
