package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.AcceleratorSelection;
import dev.modelplane.api.ome.v1beta1.Addressable;
import dev.modelplane.api.ome.v1beta1.ComponentStatusSpec;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.TrafficTarget;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.ObjectApplier;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads how each component of an InferenceService is doing: a Deployment's {@code Available} condition (from the
 * informer cache), a LeaderWorkerSet's {@code Available} or a Knative Service's {@code Ready} (read directly: the
 * operator keeps no informer on optional kinds), and the component's pods for the model status.
 */
final class ComponentHealthReader {
  private static final String SCALED_OBJECTS = "scaledobjects.keda.sh";

  private ComponentHealthReader() {
  }

  /**
   * The outcome for the status.
   *
   * @param outcome what the status aggregator builds from
   * @param unwatchedPending a LeaderWorkerSet or Knative Service is not ready yet (no event will say when it is)
   * @param serverless a component is a Knative Service, whose traffic and revisions change without an event
   */
  record Health(OmeStatusAggregator.Outcome outcome, boolean unwatchedPending, boolean serverless) {
  }

  static Health read(InferenceService isvc, OmePlan plan, ObjectApplier.Result applied,
      Context<InferenceService> context, OperatorSettings settings) {
    String ns = isvc.getMetadata().getNamespace();
    String name = isvc.getMetadata().getName();
    String url = Exposure.clusterUrl(name, ns, plan.virtual() || plan.entry() == null ? 80
        : plan.entry().servingPort());
    if (plan.virtual()) {
      return new Health(new OmeStatusAggregator.Served(plan.runtime(), List.of(), new OmeStatusAggregator.Exposure(
          url, url, true, "VirtualDeployment", "a VirtualDeployment runs no workloads")), false, false);
    }
    List<Pod> pods = context.getSecondaryResources(Pod.class).stream()
        .filter(p -> p.getMetadata().getLabels() != null
            && name.equals(p.getMetadata().getLabels().get(OmeLabels.INFERENCE_SERVICE))).toList();
    List<ComponentHealth> components = new ArrayList<>();
    boolean unwatched = false;
    for (ComponentPlan c : plan.components()) {
      List<Pod> own = pods.stream().filter(p -> c.component().equals(p.getMetadata().getLabels()
          .get(OmeLabels.COMPONENT))).toList();
      ComponentHealth health = switch (c.mode()) {
        case MULTI_NODE, MULTI_NODE_RAY_VLLM -> optional(isvc, c, own, applied, context, ns,
            OptionalWorkloads.LWS_API, "LeaderWorkerSet", OptionalWorkloads.leaderWorkerSetName(c.name()),
            "Available", "leaderworkersets.leaderworkerset.x-k8s.io");
        case SERVERLESS -> optional(isvc, c, own, applied, context, ns, OptionalWorkloads.KNATIVE_API, "Service",
            c.name(), "Ready", "services.serving.knative.dev");
        default -> applied.missingKinds().contains(SCALED_OBJECTS) && c.mode() == ComponentModes.Mode.RAW
            && "keda".equals(Autoscalers.autoscalerClass(c))
            ? new ComponentHealth(c.component(), false, "CRDNotInstalled", "KEDA autoscaling ("
                + "ome.io/autoscalerClass keda or kedaConfig.enableKeda) needs ScaledObjects, but the CRD " + SCALED_OBJECTS + " is not installed; the operator looks again "
                + "every minute", null, null, null, own, mainContainer(c))
            : deployment(c, own, context, ns, isvc);
      };
      unwatched |= !health.ready() && c.mode() != ComponentModes.Mode.RAW
          && !"CRDNotInstalled".equals(health.reason());
      components.add(health);
    }
    return new Health(new OmeStatusAggregator.Served(plan.runtime(), components,
        exposure(plan, applied, url, settings, name, ns), plan.precisePrefix()), unwatched,
        plan.components().stream().anyMatch(c -> c.mode() == ComponentModes.Mode.SERVERLESS));
  }

  private static ComponentHealth deployment(ComponentPlan c, List<Pod> pods, Context<InferenceService> context,
      String ns, InferenceService isvc) {
    Deployment d = context.getSecondaryResources(Deployment.class).stream()
        .filter(x -> c.name().equals(x.getMetadata().getName())).findFirst().orElse(null);
    AcceleratorSelection accelerator = accelerator(isvc, c);
    if (d == null || d.getStatus() == null || d.getStatus().getConditions() == null) {
      return new ComponentHealth(c.component(), false, "Initializing", "Deployment " + c.name()
          + " is being created", null, null, accelerator, pods, mainContainer(c));
    }
    DeploymentCondition available = d.getStatus().getConditions().stream()
        .filter(x -> "Available".equals(x.getType())).findFirst().orElse(null);
    boolean ready = available != null && "True".equals(available.getStatus())
        && d.getStatus().getReadyReplicas() != null && d.getStatus().getReadyReplicas() > 0;
    String revision = d.getMetadata().getAnnotations() == null ? null
        : d.getMetadata().getAnnotations().get("deployment.kubernetes.io/revision");
    String message = available == null ? "waiting for the Deployment to report availability"
        : available.getMessage();
    return new ComponentHealth(c.component(), ready, available == null ? "Initializing" : available.getReason(),
        message + " (" + orZero(d.getStatus().getReadyReplicas()) + " of " + orZero(d.getStatus().getReplicas())
            + " replicas ready)", revision, Exposure.componentUrl(c.name(), ns), accelerator, pods, mainContainer(c));
  }

  private static ComponentHealth optional(InferenceService isvc, ComponentPlan c, List<Pod> pods,
      ObjectApplier.Result applied, Context<InferenceService> context, String ns, String apiVersion, String kind, String objectName,
      String conditionType, String crd) {
    if (applied.missingKinds().contains(crd)) {
      return new ComponentHealth(c.component(), false, "CRDNotInstalled", "the " + c.mode().value() + " mode needs "
          + kind + " objects, but the CRD " + crd + " is not installed; the operator looks again every minute",
          null, null, null, pods, mainContainer(c));
    }
    GenericKubernetesResource live;
    try {
      live = context.getClient().genericKubernetesResources(apiVersion, kind).inNamespace(ns).withName(objectName)
          .get();
    } catch (KubernetesClientException e) {
      live = null;
    }
    Map<String, Object> condition = condition(live, conditionType);
    boolean ready = condition != null && "True".equals(condition.get("status"));
    String reason = condition == null ? "Initializing" : String.valueOf(condition.getOrDefault("reason",
        ready ? conditionType : "NotReady"));
    String message = condition == null ? kind + " " + objectName + " has not reported " + conditionType + " yet"
        : String.valueOf(condition.getOrDefault("message", kind + " " + objectName + " " + conditionType + "="
            + condition.get("status")));
    String revision = live == null ? null : live.getMetadata().getResourceVersion();
    ComponentStatusSpec recorded = recorded(isvc, c);
    String rolledOut = recorded == null ? null : recorded.latestRolledoutRevision();
    String previous = recorded == null ? null : recorded.previousRolledoutRevision();
    ComponentHealth.Knative knative = new ComponentHealth.Knative(null, rolledOut, previous, List.of(), null, null);
    if (live != null && live.getAdditionalProperties().get("status") instanceof Map<?, ?> status) {
      if (status.get("latestCreatedRevisionName") != null) {
        revision = String.valueOf(status.get("latestCreatedRevisionName"));
      }
      String full = fullTraffic(status.get("traffic"));
      if (full != null && !full.equals(rolledOut)) {
        // A revision took all traffic: the one before it becomes the previous rollout (a rollback included).
        previous = rolledOut;
        rolledOut = full;
      }
      knative = new ComponentHealth.Knative(text(status.get("latestReadyRevisionName")), rolledOut, previous,
          traffic(status.get("traffic")), text(status.get("url")), address(status.get("address")));
    }
    return new ComponentHealth(c.component(), ready, reason, message, revision,
        Exposure.componentUrl(c.name(), ns), null, pods, mainContainer(c), knative);
  }

  /** A Knative Service's {@code status.traffic}, as the InferenceService's status shows it. */
  private static List<TrafficTarget> traffic(Object traffic) {
    if (!(traffic instanceof List<?> targets)) {
      return List.of();
    }
    List<TrafficTarget> out = new ArrayList<>();
    for (Object t : targets) {
      if (t instanceof Map<?, ?> m) {
        out.add(new TrafficTarget(text(m.get("tag")), text(m.get("revisionName")), text(m.get("configurationName")),
            m.get("latestRevision") instanceof Boolean b ? b : null,
            m.get("percent") instanceof Number n ? n.longValue() : null, text(m.get("url"))));
      }
    }
    return out;
  }

  private static Addressable address(Object address) {
    return address instanceof Map<?, ?> m && m.get("url") != null
        ? new Addressable(text(m.get("name")), text(m.get("url")), text(m.get("CACerts")), text(m.get("audience")))
        : null;
  }

  private static String text(Object value) {
    return value == null ? null : String.valueOf(value);
  }

  /** The revision a Knative Service's status sends all traffic to, or null during a split. */
  private static String fullTraffic(Object traffic) {
    if (!(traffic instanceof List<?> targets)) {
      return null;
    }
    return targets.stream().filter(t -> t instanceof Map<?, ?> m && m.get("percent") instanceof Number n
        && n.intValue() == 100 && m.get("revisionName") != null)
        .map(t -> String.valueOf(((Map<?, ?>) t).get("revisionName"))).findFirst().orElse(null);
  }

  /** What the previous status recorded for the component, or null. */
  private static ComponentStatusSpec recorded(InferenceService isvc, ComponentPlan c) {
    var status = isvc.getStatus();
    return status == null || status.components() == null ? null : status.components().get(c.component());
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> condition(GenericKubernetesResource live, String type) {
    if (live == null || !(live.getAdditionalProperties().get("status") instanceof Map<?, ?> status)
        || !(status.get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    return conditions.stream().filter(o -> o instanceof Map<?, ?> m && type.equals(m.get("type")))
        .map(o -> (Map<String, Object>) o).findFirst().orElse(null);
  }

  private static OmeStatusAggregator.Exposure exposure(OmePlan plan, ObjectApplier.Result applied, String url,
      OperatorSettings settings, String name, String ns) {
    var omeSettings = settings.omeServing();
    if (!omeSettings.ingressEnabled()) {
      return new OmeStatusAggregator.Exposure(url, url, true, "IngressDisabled", "ingress is off; the service is "
          + "reached at " + url);
    }
    String crd = omeSettings.gatewayApi() ? "httproutes.gateway.networking.k8s.io" : null;
    if (crd != null && applied.missingKinds().contains(crd)) {
      return new OmeStatusAggregator.Exposure(url, url, false, "CRDNotInstalled", "Gateway API is enabled but the "
          + "CRD " + crd + " is not installed; the operator looks again every minute");
    }
    String external = "http://" + Exposure.host(omeSettings, name, ns);
    return new OmeStatusAggregator.Exposure(external, url, true, omeSettings.gatewayApi() ? "HTTPRouteCreated"
        : "IngressCreated", (omeSettings.gatewayApi() ? "HTTPRoute " : "Ingress ") + name + " routes " + external
            + " to " + plan.entry().name());
  }

  private static AcceleratorSelection accelerator(InferenceService isvc, ComponentPlan c) {
    var component = switch (c.component()) {
      case ComponentPlanner.ENGINE -> isvc.getSpec().engine();
      case ComponentPlanner.DECODER -> isvc.getSpec().decoder();
      default -> null;
    };
    String name = c.component().equals(ComponentPlanner.ROUTER) ? null
        : ComponentPlanner.acceleratorClass(isvc, component);
    return name == null ? null : new AcceleratorSelection(name, "named by the InferenceService", null, null);
  }

  private static String mainContainer(ComponentPlan c) {
    return c.mainContainer();
  }

  private static int orZero(Integer value) {
    return value == null ? 0 : value;
  }
}
