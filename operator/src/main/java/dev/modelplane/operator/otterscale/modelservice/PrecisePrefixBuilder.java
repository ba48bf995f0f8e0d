package dev.modelplane.operator.otterscale.modelservice;

import dev.modelplane.api.otterscale.v1alpha1.EndpointPickerSpec;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.prefixrouting.KvEventsPolicy;
import dev.modelplane.operator.prefixrouting.KvEventsWiring;
import dev.modelplane.operator.prefixrouting.PrecisePrefixOutcome;
import dev.modelplane.operator.prefixrouting.PrecisePrefixSettings;
import dev.modelplane.operator.prefixrouting.PodTemplateLabels;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import dev.modelplane.operator.prefixrouting.TokenizerSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePortBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Precise prefix-cache routing for a ModelService whose picker configuration (its annotation
 * {@value PrecisePrefixStatus#CONFIG_ANNOTATION}) uses {@value PrecisePrefixSettings#SCORER}: every vLLM container
 * publishes its KV-cache events as the scorer reads them ({@link KvEventsWiring}); in central mode the picker's
 * container and Service expose the port it binds (the servers' event ports are in no Service); a NetworkPolicy
 * ({@link KvEventsPolicy}) admits only the picker to the servers' sockets, or only the servers to the picker's;
 * modelplane's picker gets {@code --tokenizer} from the annotation {@value TokenizerSource#ANNOTATION}. The model
 * itself is unpacked into each serving pod's own emptyDir, so there is no model volume the picker could share.
 * Nothing changes for any other configuration.
 */
final class PrecisePrefixBuilder {
  private PrecisePrefixBuilder() {
  }

  /**
   * The picker's configuration and, when it uses the scorer, the scorer's settings.
   *
   * @param config the configuration rendered into the ConfigMap
   * @param scorer the scorer's settings, or null when the configuration does not use it
   * @param invalid why the annotation's configuration was not used, or null
   */
  record Choice(PickerConfig config, PrecisePrefixSettings scorer, PrecisePrefixStatus invalid) {
  }

  /** The name of the NetworkPolicy of the pool's event sockets. */
  static String policyName(ModelServiceNames names) {
    return names.picker() + "-kv-events";
  }

  /**
   * The plan with its KV-events NetworkPolicy, if any, settled among the namespace's policies
   * ({@link KvEventsPolicy#settle}) against the pod templates of its Deployments, with the peers' egress allowance
   * when the namespace restricts their egress (unwanted otherwise).
   */
  static ModelServicePlan settle(ModelServicePlan plan, List<NetworkPolicy> namespacePolicies) {
    List<Map<String, String>> pods = PodTemplateLabels.of(plan.owned());
    List<HasMetadata> owned = new ArrayList<>();
    List<ModelServicePlan.ObjectRef> unwanted = new ArrayList<>(plan.unwanted());
    PrecisePrefixStatus status = plan.precisePrefix();
    NetworkPolicy egress = null;
    String policyName = null;
    for (HasMetadata object : plan.owned()) {
      if (object instanceof NetworkPolicy policy && KvEventsPolicy.marked(policy)) {
        KvEventsPolicy.Settled settled = KvEventsPolicy.settle(policy, pods, namespacePolicies);
        owned.add(settled.policy());
        egress = settled.egress();
        policyName = policy.getMetadata().getName();
        if (settled.problem() != null && status != null) {
          status = status.with(settled.problem());
        }
      } else {
        owned.add(object);
      }
    }
    if (egress != null) {
      owned.add(egress);
    } else if (policyName != null) {
      unwanted.add(new ModelServicePlan.ObjectRef(KvEventsPolicy.API_VERSION, KvEventsPolicy.KIND,
          policyName + KvEventsPolicy.EGRESS_SUFFIX, false));
    }
    return new ModelServicePlan(owned, plan.clusterScoped(), unwanted, plan.pickerConfig(), status);
  }

  /** The annotation's configuration when it can be read, else the generated one for the serving mode. */
  static Choice choose(ModelService ms, boolean prefillDecode) {
    String custom = annotation(ms, PrecisePrefixStatus.CONFIG_ANNOTATION);
    if (custom == null || custom.isBlank()) {
      return new Choice(PickerConfig.of(prefillDecode), null, null);
    }
    try {
      return new Choice(PickerConfig.custom(custom), PrecisePrefixSettings.of(custom).orElse(null), null);
    } catch (IllegalArgumentException e) {
      return new Choice(PickerConfig.of(prefillDecode), null, PrecisePrefixStatus.invalidConfig(e.getMessage()));
    }
  }

  /**
   * Wires the serving Deployments and the picker for the scorer of {@code choice}: the condition's content (null
   * when the picker does not use the scorer and nothing was wrong) and the event sockets' NetworkPolicy.
   */
  static PrecisePrefixOutcome apply(ModelService ms, ModelServiceNames names, EndpointPickerSpec picker,
      Choice choice, List<Deployment> serving, Deployment pickerDeployment, Service pickerService) {
    PrecisePrefixSettings scorer = choice.scorer();
    if (scorer == null) {
      return PrecisePrefixOutcome.of(choice.invalid());
    }
    String host = names.picker() + "." + names.namespace() + ".svc";
    var server = new KvEventsWiring.Server(ms.getSpec().model().name(),
        ServingDeploymentBuilder.enginePort(ms.getSpec()), host, true);
    Set<String> problems = new LinkedHashSet<>();
    for (Deployment d : serving) {
      Container vllm = container(d.getSpec().getTemplate().getSpec(), ServingDeploymentBuilder.ENGINE_CONTAINER);
      KvEventsWiring.apply(vllm, scorer, server).forEach(p -> problems.add("spec.engine: " + p));
    }
    Container epp = container(pickerDeployment.getSpec().getTemplate().getSpec(), PickerBuilder.CONTAINER);
    NetworkPolicy policy = null;
    List<Integer> guardable = KvEventsWiring.guardable(scorer.serverPorts(),
        serving.stream().map(d -> d.getSpec().getTemplate().getSpec()).toList());
    if (scorer.discoverPods() && !guardable.isEmpty()) {
      policy = KvEventsPolicy.build(policyName(names), names.namespace(), names.pickerLabels(), names.poolSelector(),
          names.pickerSelector(), guardable);
    } else if (scorer.discoverPods()) {
      problems.add("metadata.annotations[" + PrecisePrefixStatus.CONFIG_ANNOTATION + "]: no NetworkPolicy guards "
          + "the servers' event sockets, whose ports are the servers' own");
    } else if (scorer.centralPort() > 0) {
      int port = scorer.centralPort();
      String taken = KvEventsWiring.portName(epp.getPorts(), port);
      if (taken != null) {
        problems.add(KvEventsWiring.centralPortTaken(port, taken));
      } else {
        policy = KvEventsPolicy.build(policyName(names), names.namespace(), names.pickerLabels(),
            names.pickerSelector(), names.poolSelector(), List.of(port));
        epp.getPorts().add(ServingDeploymentBuilder.port(KvEventsWiring.EVENTS_PORT, port));
        pickerService.getSpec().getPorts().add(new ServicePortBuilder().withName(KvEventsWiring.EVENTS_PORT)
            .withPort(port).withTargetPort(new IntOrString(port)).withProtocol("TCP").build());
      }
      if (picker.replicas() > 1) {
        problems.add("spec.inferencePool.endpointPicker.replicas: each server connects to one of the "
            + picker.replicas() + " picker replicas through the Service, so the others never see its events; "
            + "with several replicas let the picker discover the pods (kvEventsConfig.discoverPods: true)");
      }
    }
    if (policy != null && KvEventsPolicy.optedOut(ms.getMetadata().getAnnotations(), problems)) {
      policy = null;
    }
    String tokenizer = tokenizer(ms, picker, pickerDeployment.getSpec().getTemplate().getSpec(), epp, problems);
    if (!problems.isEmpty()) {
      return new PrecisePrefixOutcome(PrecisePrefixStatus.conflicting(new ArrayList<>(problems)), policy);
    }
    return new PrecisePrefixOutcome(PrecisePrefixStatus.configured(PrecisePrefixStatus.flow(scorer, host) + "; "
        + tokenizer), policy);
  }

  /** Mounts the annotation's tokenizer into modelplane's picker and names it; says what was done. */
  private static String tokenizer(ModelService ms, EndpointPickerSpec picker, PodSpec pod, Container epp,
      Set<String> problems) {
    String value = annotation(ms, TokenizerSource.ANNOTATION);
    if (value == null || value.isBlank()) {
      return "no tokenizer (annotation " + TokenizerSource.ANNOTATION + " unset): prompts are scored from the "
          + "approximate index unless given as token ids";
    }
    if (!PickerBuilder.isModelplane(picker.image())) {
      return "the picker image " + picker.image() + " is not modelplane's router, so " + TokenizerSource.ANNOTATION
          + " is not passed to it";
    }
    TokenizerSource source;
    try {
      source = TokenizerSource.parse(value);
    } catch (IllegalArgumentException e) {
      problems.add("metadata.annotations[" + TokenizerSource.ANNOTATION + "]: " + e.getMessage());
      return "";
    }
    epp.getArgs().add(source.flag());
    if (source.mounted()) {
      epp.getVolumeMounts().add(source.mount());
      pod.getVolumes().add(source.volume());
    }
    return "tokenizer from " + value.strip();
  }

  private static Container container(PodSpec pod, String name) {
    return pod.getContainers().stream().filter(c -> name.equals(c.getName())).findFirst().orElseThrow();
  }

  private static String annotation(ModelService ms, String key) {
    Map<String, String> annotations = ms.getMetadata().getAnnotations();
    return annotations == null ? null : annotations.get(key);
  }
}
