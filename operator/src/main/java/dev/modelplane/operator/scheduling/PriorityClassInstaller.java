package dev.modelplane.operator.scheduling;

import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.ArrayList;
import java.util.List;

/** The {@code llmkube-*} PriorityClasses, as objects and optionally applied by the operator at start-up. */
public final class PriorityClassInstaller {
  private PriorityClassInstaller() {
  }

  /** One PriorityClass per tier (the same as {@code deploy/operator/priority-classes.yaml}). */
  public static List<PriorityClass> classes() {
    List<PriorityClass> classes = new ArrayList<>();
    for (PriorityTier tier : PriorityTier.values()) {
      classes.add(new PriorityClassBuilder()
          .withNewMetadata().withName(tier.className())
            .addToLabels("app.kubernetes.io/managed-by", "modelplane").endMetadata()
          .withValue(tier.value())
          .withPreemptionPolicy(tier.preemptionPolicy())
          .withGlobalDefault(false)
          .withDescription("LLMKube " + tier.name().toLowerCase(java.util.Locale.ROOT)
              + " priority for inference workloads")
          .build());
    }
    return classes;
  }

  /** Server-side applies the classes (value and preemption policy are immutable: existing ones are left alone). */
  public static void install(KubernetesClient client) {
    for (PriorityClass pc : classes()) {
      if (client.scheduling().v1().priorityClasses().withName(pc.getMetadata().getName()).get() == null) {
        client.scheduling().v1().priorityClasses().resource(pc).fieldManager("modelplane-operator")
            .forceConflicts().serverSideApply();
      }
    }
  }
}
