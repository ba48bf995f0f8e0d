package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.AcceleratorModelConfig;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.ComponentExtensionSpec;
import dev.modelplane.api.ome.v1beta1.DecoderSpec;
import dev.modelplane.api.ome.v1beta1.EngineSpec;
import dev.modelplane.api.ome.v1beta1.FailureReason;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.MultiNodeComponentSpec;
import dev.modelplane.api.ome.v1beta1.RouterSpec;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import dev.modelplane.api.ome.v1beta1.SupportedModelFormat;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.Names;
import dev.modelplane.operator.prefixrouting.PrecisePrefixOutcome;
import dev.modelplane.operator.ome.runtime.RuntimeCandidate;
import dev.modelplane.operator.ome.runtime.RuntimeChoice;
import dev.modelplane.operator.ome.runtime.RuntimeRequest;
import dev.modelplane.operator.ome.runtime.RuntimeSelector;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Plans an OME InferenceService without touching the cluster: chooses its runtime ({@link RuntimeSelector}), merges
 * every declared component over the runtime's template ({@link ComponentMerge}), decides each component's mode
 * ({@link ComponentModes}), wires the model in ({@link ComponentPlanner}) and the default router's picker
 * configuration ({@link PreciseRouting}), and lists the objects to apply. Whatever
 * makes the service unservable comes back as a {@link Blocked} outcome naming the field.
 */
final class OmeServingPlanner {
  private OmeServingPlanner() {
  }

  /** A plan or why there is none. */
  sealed interface Result {
  }

  record Planned(OmePlan plan) implements Result {
  }

  record Blocked(OmeStatusAggregator.Blocked blocked) implements Result {
  }

  static Result plan(InferenceService isvc, InferenceServiceSpec spec, ServedModel model,
      List<ServingRuntime> namespaceRuntimes, List<ClusterServingRuntime> clusterRuntimes, OperatorSettings settings) {
    String ns = isvc.getMetadata().getNamespace();
    ComponentModes.Mode serviceMode = ComponentModes.service(isvc);
    if (serviceMode == ComponentModes.Mode.VIRTUAL) {
      return new Planned(new OmePlan("none (VirtualDeployment)", List.of(), List.of(), null, true));
    }
    if (spec.engine() == null) {
      return invalid("spec.engine: an engine component is required (or the deprecated spec.predictor)");
    }
    List<RuntimeCandidate> candidates = Stream.concat(namespaceRuntimes.stream().map(RuntimeCandidate::of),
        clusterRuntimes.stream().map(RuntimeCandidate::of)).toList();
    RuntimeRequest request = new RuntimeRequest(ns, model.name(), model.spec(),
        RuntimeRequest.acceleratorClasses(isvc), protocol(spec));
    RuntimeChoice choice = spec.runtime() != null && spec.runtime().name() != null
        ? RuntimeSelector.named(request, spec.runtime().name(), candidates)
        : RuntimeSelector.select(request, candidates);
    if (choice instanceof RuntimeChoice.NoRuntime none) {
      return new Blocked(new OmeStatusAggregator.Blocked(OmeStatusAggregator.RUNTIME_SELECTED, none.reason(),
          none.message(), failure(none.reason())));
    }
    RuntimeChoice.Chosen chosen = (RuntimeChoice.Chosen) choice;
    ServingRuntimeSpec runtime = chosen.runtime().spec();
    try {
      ComponentPlanner planner = new ComponentPlanner(isvc, spec, model, chosen.runtime().name(), settings);
      List<ComponentPlan> components = new ArrayList<>();
      boolean hasDecoder = spec.decoder() != null;
      EngineSpec engineTemplate = RuntimeTemplates.engine(runtime);
      components.add(planner.plan(ComponentPlanner.ENGINE, ComponentMerge.merge(spec.engine(),
          engineTemplate, runtime, EngineSpec.class), ComponentModes.engine(merged(spec.engine(),
              engineTemplate), hasDecoder), accelerator(isvc, spec.engine(), chosen.format()), hasDecoder));
      if (hasDecoder) {
        DecoderSpec decoderTemplate = RuntimeTemplates.decoder(runtime);
        components.add(planner.plan(ComponentPlanner.DECODER, ComponentMerge.merge(spec.decoder(),
            decoderTemplate, runtime, DecoderSpec.class), ComponentModes.decoder(merged(spec.decoder(),
                decoderTemplate)), accelerator(isvc, spec.decoder(), chosen.format()), true));
      }
      if (spec.router() != null) {
        components.add(planner.plan(ComponentPlanner.ROUTER, ComponentMerge.merge(spec.router(),
            runtime.getRouterConfig(), runtime, RouterSpec.class), ComponentModes.router(spec.router()), null,
            hasDecoder));
      }
      PrecisePrefixOutcome precise = PreciseRouting.apply(isvc, components, planner.defaultRouter(), model.name(),
          planner::modelLocation);
      ComponentPlan entry = components.getLast().component().equals(ComponentPlanner.ROUTER) ? components.getLast()
          : components.getFirst();
      List<HasMetadata> objects = new ArrayList<>();
      for (ComponentPlan c : components) {
        objects.addAll(switch (c.mode()) {
          case MULTI_NODE, MULTI_NODE_RAY_VLLM -> OptionalWorkloads.multiNode(c);
          case SERVERLESS -> List.of(OptionalWorkloads.serverless(c, previousRevision(isvc, c.component())));
          default -> RawWorkloads.build(c);
        });
      }
      objects.addAll(planner.routerObjects(components));
      if (precise.policy() != null) {
        objects.add(precise.policy());
      }
      objects.addAll(Exposure.objects(isvc.getMetadata().getName(), ns, entry, isvc.getMetadata().getLabels(),
          isvc.getMetadata().getAnnotations(), settings.omeServing()));
      return new Planned(new OmePlan(chosen.describe(), components, objects, entry, false,
          chosen.runtime().scope() == RuntimeCandidate.Scope.CLUSTER ? runtime : null, precise.status()));
    } catch (IllegalArgumentException e) {
      return invalid(e.getMessage());
    }
  }

  /** The component's own settings over the runtime's, for deciding the mode (annotations, leader, minReplicas). */
  private static ComponentExtensionSpec merged(ComponentExtensionSpec own, ComponentExtensionSpec template) {
    if (template == null) {
      return own;
    }
    var json = new io.fabric8.kubernetes.client.utils.KubernetesSerialization();
    return json.convertValue(StrategicMerge.merge(json.convertValue(template,
        com.fasterxml.jackson.databind.JsonNode.class), json.convertValue(own,
        com.fasterxml.jackson.databind.JsonNode.class)), own.getClass());
  }

  /**
   * The accelerator settings of the runtime's chosen format for the class the component runs on: its
   * {@code acceleratorOverride}, else the service's {@code acceleratorSelector}, else its annotation.
   */
  private static AcceleratorModelConfig accelerator(InferenceService isvc, MultiNodeComponentSpec component,
      SupportedModelFormat format) {
    String name = ComponentPlanner.acceleratorClass(isvc, component);
    return name == null || format == null || format.acceleratorConfig() == null ? null
        : format.acceleratorConfig().get(name);
  }

  private static String previousRevision(InferenceService isvc, String component) {
    var status = isvc.getStatus();
    if (status == null || status.components() == null || status.components().get(component) == null) {
      return null;
    }
    return status.components().get(component).latestRolledoutRevision();
  }

  private static FailureReason failure(String reason) {
    return switch (reason) {
      case "RuntimeNotRecognized" -> FailureReason.RuntimeNotRecognized;
      case "RuntimeDisabled" -> FailureReason.RuntimeDisabled;
      default -> FailureReason.NoSupportingRuntime;
    };
  }

  private static Blocked invalid(String message) {
    return new Blocked(new OmeStatusAggregator.Blocked(OmeStatusAggregator.READY, "InvalidSpec", message, null));
  }

  static String componentName(String isvc, String component) {
    return Names.child(isvc, component);
  }

  /** The engine runner's {@code PROTOCOL_VERSION} (a predictor's {@code model.protocolVersion}), or null. */
  private static String protocol(InferenceServiceSpec spec) {
    var runner = spec.engine().getRunner();
    if (runner == null || runner.getEnv() == null) {
      return null;
    }
    return runner.getEnv().stream().filter(e -> PredictorConversion.PROTOCOL_VERSION.equals(e.getName()))
        .map(io.fabric8.kubernetes.api.model.EnvVar::getValue).filter(v -> v != null && !v.isBlank()).findFirst()
        .orElse(null);
  }
}
