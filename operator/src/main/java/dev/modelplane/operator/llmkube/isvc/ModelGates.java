package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.InferenceService;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelPhase;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.common.EnumValues;
import dev.modelplane.operator.llmkube.isvc.IsvcObservation.ModelGate;
import io.fabric8.kubernetes.api.model.Condition;

/**
 * Whether an InferenceService's Models let it be served: a missing or failed Model fails the service (naming the
 * field), a Model that is not Ready yet, or whose Ready status was written for an earlier generation of its spec,
 * keeps it Pending. The draft Model of {@code speculativeDecoding.draftModelRef}
 * is gated the same way.
 */
public final class ModelGates {
  static final String MODEL_REF = "spec.modelRef";
  static final String DRAFT_REF = "spec.speculativeDecoding.draftModelRef";

  private ModelGates() {
  }

  /** The draft Model's name, or null when the service has none. */
  public static String draftRef(InferenceService isvc) {
    var sd = isvc.getSpec().speculativeDecoding();
    return sd == null || sd.draftModelRef() == null || sd.draftModelRef().isBlank() ? null : sd.draftModelRef();
  }

  /** The combined gate of the served Model and, when referenced, the draft Model (null when absent). */
  public static ModelGate of(InferenceService isvc, Model model, Model draft) {
    ModelGate gate = one(isvc, MODEL_REF, isvc.getSpec().modelRef(), model);
    String draftRef = draftRef(isvc);
    return draftRef == null ? gate : gate.worst(one(isvc, DRAFT_REF, draftRef, draft));
  }

  static ModelGate one(InferenceService isvc, String field, String ref, Model model) {
    if (model == null) {
      return new ModelGate(ModelGate.State.MISSING, field, "Model " + ref + " not found in namespace "
          + isvc.getMetadata().getNamespace());
    }
    ModelPhase phase = model.getStatus() == null ? null : model.getStatus().phase();
    if (phase == ModelPhase.READY && current(model)) {
      return new ModelGate(ModelGate.State.READY, field, "");
    }
    if (phase == ModelPhase.READY) {
      return new ModelGate(ModelGate.State.NOT_READY, field, "Waiting for " + (field.equals(DRAFT_REF) ? "draft "
          : "") + "Model " + ref + " to be observed at generation " + model.getMetadata().getGeneration()
          + " (its Ready status is for an earlier spec)");
    }
    if (phase == ModelPhase.FAILED) {
      Condition degraded = Conditions.find(model.getStatus().conditions(), "Degraded");
      return new ModelGate(ModelGate.State.FAILED, field, "Model " + ref + " failed"
          + (degraded == null || degraded.getMessage() == null || degraded.getMessage().isEmpty() ? ""
              : ": " + degraded.getMessage()));
    }
    return new ModelGate(ModelGate.State.NOT_READY, field, "Waiting for " + (field.equals(DRAFT_REF) ? "draft " : "")
        + "Model " + ref + " to be Ready (phase " + (phase == null ? "unknown" : EnumValues.of(phase)) + ")");
  }

  /**
   * Whether a Model's status describes its current spec: its {@code Available} condition was written for
   * {@code metadata.generation}. A Model whose spec changed after it became Ready (a new {@code spec.source}) is
   * not served from the old status. A Model without a generation (never stored by an API server) counts as current.
   */
  static boolean current(Model model) {
    Long generation = model.getMetadata() == null ? null : model.getMetadata().getGeneration();
    if (generation == null) {
      return true;
    }
    Condition available = Conditions.find(model.getStatus().conditions(), "Available");
    return available != null && generation.equals(available.getObservedGeneration());
  }
}
