package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.EndpointPickerSpec;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.ModelServiceSettings;
import dev.modelplane.operator.common.SecurityDefaults;
import dev.modelplane.operator.prefixrouting.KvEventsPolicy;
import dev.modelplane.operator.prefixrouting.PrecisePrefixOutcome;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * A ModelService's objects, a pure function of the ModelService and the operator settings (OtterScale's builders,
 * in its order): serving Deployments; the picker's ServiceAccount, ConfigMap, Deployment, Service, Role/RoleBinding
 * and ClusterRoleBinding (to the installed ClusterRole, for the operator's own picker image only); the InferencePool;
 * the HTTPRoute; the DestinationRule; the monitors. A picker configuration using precise prefix routing also wires
 * the servers' KV-cache events and guards their sockets with a NetworkPolicy ({@link PrecisePrefixBuilder}). Objects
 * a setting turns off are listed as unwanted, so a change of spec or settings removes them (the ClusterRoleBinding,
 * whose removal checks its owner, is the reconciler's).
 */
public final class ModelServicePlanner {
  static final String DEPLOYMENT_API = "apps/v1";

  private ModelServicePlanner() {
  }

  /**
   * The required fields {@code ms} lacks, named by path. The API server refuses such a ModelService (the CRD requires
   * them); {@code render}, which reads files, asks here first.
   */
  public static List<String> missingFields(ModelService ms) {
    List<String> missing = new ArrayList<>();
    var spec = ms.getSpec();
    if (spec == null) {
      return List.of("spec");
    }
    if (spec.model() == null || spec.model().name() == null || spec.model().name().isEmpty()) {
      missing.add("spec.model.name");
    }
    if (spec.model() == null || spec.model().image() == null || spec.model().image().isEmpty()) {
      missing.add("spec.model.image");
    }
    if (spec.engine() == null) {
      missing.add("spec.engine");
    }
    if (spec.accelerator() == null || spec.accelerator().type() == null) {
      missing.add("spec.accelerator.type");
    }
    if (spec.decode() == null) {
      missing.add("spec.decode");
    }
    if (spec.inferencePool() != null && spec.inferencePool().endpointPicker() == null) {
      missing.add("spec.inferencePool.endpointPicker");
    }
    if (spec.httpRoute() != null && (spec.httpRoute().gatewayRef() == null
        || spec.httpRoute().gatewayRef().name() == null)) {
      missing.add("spec.httpRoute.gatewayRef.name");
    }
    return missing;
  }

  /** The plan with the default pod security ({@link SecurityDefaults#defaults()}). */
  public static ModelServicePlan plan(ModelService ms, ModelServiceSettings settings) {
    return plan(ms, settings, SecurityDefaults.defaults());
  }

  /** The plan; every pod template gets {@code security} merged in ({@link SecurityDefaults#harden}). */
  public static ModelServicePlan plan(ModelService ms, ModelServiceSettings settings, SecurityDefaults security) {
    ModelServiceNames names = new ModelServiceNames(ms.getMetadata().getName(), ms.getMetadata().getNamespace());
    boolean prefillDecode = ms.getSpec().prefill() != null;
    boolean explicitPool = ms.getSpec().inferencePool() != null;
    boolean token = explicitPool && settings.metricsEndpointAuth()
        && settings.provider() != ModelServiceSettings.Provider.GKE;
    EndpointPickerSpec picker = PickerBuilder.effective(ms, settings);
    boolean clusterRbac = PickerBuilder.clusterReviews(ms, picker, settings);
    PrecisePrefixBuilder.Choice choice = PrecisePrefixBuilder.choose(ms, prefillDecode);
    PickerConfig config = choice.config();
    List<HasMetadata> owned = new ArrayList<>();
    List<HasMetadata> cluster = new ArrayList<>();
    List<ModelServicePlan.ObjectRef> unwanted = new ArrayList<>();

    List<Deployment> servers = new ArrayList<>(List.of(
        ServingDeploymentBuilder.build(ms, ModelServiceNames.DECODE, settings)));
    if (prefillDecode) {
      servers.add(ServingDeploymentBuilder.build(ms, ModelServiceNames.PREFILL, settings));
    } else {
      unwanted.add(ref(DEPLOYMENT_API, "Deployment", names.serving(ModelServiceNames.PREFILL)));
    }
    Deployment pickerDeployment = PickerBuilder.deployment(names, picker, config, settings);
    Service pickerService = PickerBuilder.service(names, picker);
    PrecisePrefixOutcome precise = PrecisePrefixBuilder.apply(ms, names, picker, choice, servers,
        pickerDeployment, pickerService);
    servers.forEach(d -> owned.add(serving(d, security)));
    owned.add(PickerBuilder.serviceAccount(names));
    owned.add(PickerBuilder.configMap(names, config));
    security.harden(pickerDeployment.getSpec().getTemplate().getSpec(), Set.of());
    owned.add(pickerDeployment);
    owned.add(pickerService);
    if (precise.policy() != null) {
      owned.add(precise.policy());
    } else {
      unwanted.add(ref(KvEventsPolicy.API_VERSION, KvEventsPolicy.KIND, PrecisePrefixBuilder.policyName(names)));
      unwanted.add(ref(KvEventsPolicy.API_VERSION, KvEventsPolicy.KIND, PrecisePrefixBuilder.policyName(names)
          + KvEventsPolicy.EGRESS_SUFFIX));
    }
    owned.add(PickerBuilder.role(names, picker));
    owned.add(PickerBuilder.roleBinding(names));
    if (clusterRbac) {
      cluster.add(PickerBuilder.clusterRoleBinding(names));
    }
    // Pools named after the picker came from an earlier OtterScale release.
    unwanted.add(ref(TrafficBuilder.POOL_API, "InferencePool", names.picker()));
    owned.add(TrafficBuilder.pool(ms, names, picker));
    GenericKubernetesResource route = TrafficBuilder.route(ms, names, settings);
    if (route != null) {
      owned.add(route);
    } else {
      unwanted.add(ref(TrafficBuilder.ROUTE_API, "HTTPRoute", names.pool()));
    }
    if (settings.provider() == ModelServiceSettings.Provider.ISTIO) {
      owned.add(TrafficBuilder.destinationRule(names));
    } else {
      unwanted.add(ref(TrafficBuilder.DESTINATION_RULE_API, "DestinationRule", names.picker()));
    }
    boolean podMonitors = MonitoringBuilder.podMonitorsWanted(ms);
    for (String role : List.of(ModelServiceNames.DECODE, ModelServiceNames.PREFILL)) {
      boolean wanted = podMonitors && (ModelServiceNames.DECODE.equals(role) || prefillDecode);
      if (wanted) {
        owned.add(MonitoringBuilder.podMonitor(ms, names, role));
      } else {
        unwanted.add(ref(MonitoringBuilder.API, "PodMonitor", names.serving(role)));
      }
    }
    if (MonitoringBuilder.serviceMonitorWanted(ms)) {
      owned.add(MonitoringBuilder.serviceMonitor(names, token));
    } else {
      unwanted.add(ref(MonitoringBuilder.API, "ServiceMonitor", names.picker()));
    }
    return new ModelServicePlan(owned, cluster, unwanted, config, precise.status());
  }

  /** A serving Deployment with the defaults merged in; the engine gets a writable home. */
  private static Deployment serving(Deployment deployment, SecurityDefaults security) {
    security.harden(deployment.getSpec().getTemplate().getSpec(), Set.of(ServingDeploymentBuilder.ENGINE_CONTAINER));
    return deployment;
  }

  private static ModelServicePlan.ObjectRef ref(String apiVersion, String kind, String name) {
    return new ModelServicePlan.ObjectRef(apiVersion, kind, name, false);
  }
}
