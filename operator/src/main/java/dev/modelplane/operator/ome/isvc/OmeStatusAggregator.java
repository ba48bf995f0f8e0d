package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.Addressable;
import dev.modelplane.api.ome.v1beta1.ComponentStatusSpec;
import dev.modelplane.api.ome.v1beta1.FailureInfo;
import dev.modelplane.api.ome.v1beta1.FailureReason;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceStatus;
import dev.modelplane.api.ome.v1beta1.ModelCopies;
import dev.modelplane.api.ome.v1beta1.ModelRevisionStates;
import dev.modelplane.api.ome.v1beta1.ModelState;
import dev.modelplane.api.ome.v1beta1.ModelStatus;
import dev.modelplane.api.ome.v1beta1.TransitionStatus;
import dev.modelplane.operator.common.Conditions;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds an OME InferenceService's status in one place: the conditions ({@code RuntimeSelected}, one
 * {@code <Component>Ready} per declared component, {@code IngressReady}, and {@code Ready} when all of them are
 * true; {@code PrecisePrefixRouting} beside them while the router's configuration asks for precise prefix routing,
 * never part of Ready), the URL and address, per-component status, and {@code modelStatus} aggregated over every
 * component.
 *
 * <p>Where OME differs: a service that cannot be served (no model, no fitting runtime, an invalid spec) says so in
 * its status, not only in an Event; {@code Ready} needs every declared component (OME ignores decoder and router);
 * {@code modelStatus} looks at all components instead of keeping the last one computed.
 */
public final class OmeStatusAggregator {
  public static final String READY = "Ready";
  public static final String RUNTIME_SELECTED = "RuntimeSelected";
  public static final String MODEL_RESOLVED = "ModelResolved";
  public static final String INGRESS_READY = "IngressReady";
  private static final Set<String> COMPONENT_CONDITIONS = Set.of("EngineReady", "DecoderReady", "RouterReady");

  private OmeStatusAggregator() {
  }

  /** What the reconcile found, in the order it looks: the spec, the model, the runtime, then the workloads. */
  public sealed interface Outcome {
  }

  /**
   * Nothing was applied: the service cannot be served as written or its references are missing.
   *
   * @param conditionType the condition that explains it ({@code ModelResolved}, {@code RuntimeSelected}, or
   *     {@code Ready} for the spec itself)
   * @param reason CamelCase reason
   * @param message what is wrong, naming the field or listing the runtimes that were excluded
   * @param failure the broad cause for {@code modelStatus.lastFailureInfo}, or null
   */
  public record Blocked(String conditionType, String reason, String message, FailureReason failure)
      implements Outcome {
  }

  /**
   * The workloads were applied.
   *
   * @param runtime how the runtime was chosen (the RuntimeSelected message)
   * @param components the health of each declared component
   * @param exposure how the service is reached
   * @param precisePrefix how precise prefix-cache routing was rendered, or null when the router does not use it
   */
  public record Served(String runtime, List<ComponentHealth> components, Exposure exposure,
      PrecisePrefixStatus precisePrefix) implements Outcome {
    /** Served without precise prefix-cache routing. */
    public Served(String runtime, List<ComponentHealth> components, Exposure exposure) {
      this(runtime, components, exposure, null);
    }
  }

  /**
   * How the service is reached.
   *
   * @param url {@code status.url}, or null
   * @param address {@code status.address.url}, or null
   * @param ready whether ingress is ready (true when ingress is disabled)
   * @param reason CamelCase reason of IngressReady
   * @param message its message
   */
  public record Exposure(String url, String address, boolean ready, String reason, String message) {
  }

  /** The new status of {@code isvc}. */
  public static InferenceServiceStatus aggregate(InferenceService isvc, Outcome outcome, Instant now) {
    InferenceServiceStatus previous = isvc.getStatus();
    long generation = isvc.getMetadata().getGeneration() == null ? 0 : isvc.getMetadata().getGeneration();
    List<Condition> conditions = previous == null ? null : previous.conditions();
    return switch (outcome) {
      case Blocked blocked -> blocked(previous, conditions, blocked, generation, now);
      case Served served -> served(previous, conditions, served, generation, now);
    };
  }

  private static InferenceServiceStatus blocked(InferenceServiceStatus previous, List<Condition> conditions,
      Blocked blocked, long generation, Instant now) {
    if (!READY.equals(blocked.conditionType())) {
      conditions = Conditions.set(conditions, blocked.conditionType(), Conditions.FALSE, blocked.reason(),
          blocked.message(), generation, now);
    }
    if (!MODEL_RESOLVED.equals(blocked.conditionType())) {
      conditions = Conditions.remove(conditions, MODEL_RESOLVED);
    }
    conditions = Conditions.set(conditions, READY, Conditions.FALSE, blocked.reason(), blocked.message(),
        generation, now);
    FailureInfo failure = blocked.failure() == null ? null
        : new FailureInfo(null, blocked.failure(), blocked.message(), null, now.toString(), null);
    ModelStatus model = new ModelStatus(TransitionStatus.INVALID_SPEC,
        new ModelRevisionStates(ModelState.PENDING, ModelState.UNKNOWN), failure, new ModelCopies(0, 0));
    return new InferenceServiceStatus(generation, conditions, previous == null ? null : previous.annotations(),
        previous == null ? null : previous.url(), previous == null ? null : previous.address(),
        previous == null ? null : previous.components(), model);
  }

  private static InferenceServiceStatus served(InferenceServiceStatus previous, List<Condition> conditions,
      Served served, long generation, Instant now) {
    conditions = Conditions.remove(conditions, MODEL_RESOLVED);
    conditions = Conditions.set(conditions, RUNTIME_SELECTED, Conditions.TRUE, "RuntimeSelected", served.runtime(),
        generation, now);
    Map<String, ComponentStatusSpec> components = new LinkedHashMap<>();
    Set<String> declared = new java.util.HashSet<>();
    String notReady = null;
    for (ComponentHealth c : served.components()) {
      declared.add(c.conditionType());
      conditions = Conditions.set(conditions, c.conditionType(), c.ready() ? Conditions.TRUE : Conditions.FALSE,
          c.reason(), c.message(), generation, now);
      components.put(c.component(), componentStatus(c));
      if (!c.ready() && notReady == null) {
        notReady = c.conditionType() + ": " + c.message();
      }
    }
    for (String type : COMPONENT_CONDITIONS) {
      if (!declared.contains(type)) {
        conditions = Conditions.remove(conditions, type);
      }
    }
    Exposure exposure = served.exposure();
    conditions = Conditions.set(conditions, INGRESS_READY, exposure.ready() ? Conditions.TRUE : Conditions.FALSE,
        exposure.reason(), exposure.message(), generation, now);
    if (notReady == null && !exposure.ready()) {
      notReady = INGRESS_READY + ": " + exposure.message();
    }
    PrecisePrefixStatus precise = served.precisePrefix();
    conditions = precise == null ? Conditions.remove(conditions, PrecisePrefixStatus.CONDITION)
        : Conditions.set(conditions, PrecisePrefixStatus.CONDITION, precise.ok() ? Conditions.TRUE : Conditions.FALSE,
            precise.reason(), precise.message(), generation, now);
    conditions = notReady == null
        ? Conditions.set(conditions, READY, Conditions.TRUE, "ComponentsReady", "every component is ready",
            generation, now)
        : Conditions.set(conditions, READY, Conditions.FALSE, "ComponentsNotReady", notReady, generation, now);
    boolean ready = notReady == null;
    return new InferenceServiceStatus(generation, conditions, previous == null ? null : previous.annotations(),
        ready || exposure.url() != null ? exposure.url() : null,
        exposure.address() == null ? null : new Addressable(null, exposure.address(), null, null),
        components.isEmpty() ? null : components, ModelStatusAggregation.of(served.components(), ready, now));
  }

  /**
   * One component's status: its revisions, and once ready its URL and REST URL (the same HTTP base: the model
   * servers and the router speak REST at their root); a serverless component adds Knative's traffic split and
   * address, and its URL is the Knative Service's.
   */
  static ComponentStatusSpec componentStatus(ComponentHealth c) {
    ComponentHealth.Knative k = c.knative();
    String url = !c.ready() ? null : k != null && k.url() != null ? k.url() : c.url();
    if (k == null) {
      return new ComponentStatusSpec(null, c.latestCreatedRevision(), null, null, null, url, url, null,
          c.accelerator());
    }
    return new ComponentStatusSpec(k.latestReadyRevision(), c.latestCreatedRevision(),
        k.previousRolledoutRevision(), k.latestRolledoutRevision(), k.traffic().isEmpty() ? null : k.traffic(), url,
        url, c.ready() ? k.address() : null, c.accelerator());
  }
}
