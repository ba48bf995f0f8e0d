package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.operator.common.Names;
import dev.modelplane.operator.prefixrouting.KvEventsPolicy;
import dev.modelplane.operator.prefixrouting.KvEventsWiring;
import dev.modelplane.operator.prefixrouting.PrecisePrefixOutcome;
import dev.modelplane.operator.prefixrouting.PrecisePrefixSettings;
import dev.modelplane.operator.prefixrouting.PodTemplateLabels;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import dev.modelplane.operator.prefixrouting.TokenizerSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The default router's EndpointPickerConfig from the InferenceService's annotation
 * {@value PrecisePrefixStatus#CONFIG_ANNOTATION} (given with {@code --config-text}, in place of the generated one)
 * and, when it uses {@value PrecisePrefixSettings#SCORER}, the KV-cache events of the engine and decoder servers
 * ({@link KvEventsWiring}; vLLM only — SGLang's events are not read by the router), the router's events port in
 * central mode, and its tokenizer: the annotation {@value TokenizerSource#ANNOTATION}, else a {@code pvc://} model's
 * claim mounted read-only. A model in a node directory is not mounted into the router, which does not run on the
 * model's nodes. A NetworkPolicy ({@link KvEventsPolicy}) admits only the router to the servers' event sockets, or
 * only the servers to the router's; the servers' event ports are in no Service ({@link RawWorkloads}).
 */
final class PreciseRouting {
  /** A shell binary, by its file name: what runs a {@code -c} script rather than vLLM's own flags. */
  private static final Pattern SHELL = Pattern.compile("(?:.*/)?(?:sh|bash|dash|ash|ksh|mksh|zsh)");
  private static final Pattern ENV = Pattern.compile("(?:.*/)?env");

  private PreciseRouting() {
  }

  /**
   * Applies the annotation to the planned components (in place).
   *
   * @param defaultRouter whether the router component runs modelplane's router
   * @param modelName the served model's name, for the topic when the server names none
   * @param location where the model's files are
   * @return the condition's content (null when there is nothing to say: no annotation, or no precise scorer) and
   *     the event sockets' NetworkPolicy
   */
  static PrecisePrefixOutcome apply(InferenceService isvc, List<ComponentPlan> components, boolean defaultRouter,
      String modelName, Supplier<ModelLocation> location) {
    Map<String, String> annotations = isvc.getMetadata().getAnnotations();
    String custom = annotations == null ? null : annotations.get(PrecisePrefixStatus.CONFIG_ANNOTATION);
    if (custom == null || custom.isBlank()) {
      return PrecisePrefixOutcome.of(null);
    }
    ComponentPlan router = components.stream().filter(c -> c.component().equals(ComponentPlanner.ROUTER))
        .findFirst().orElse(null);
    if (router == null || !defaultRouter) {
      return PrecisePrefixOutcome.of(PrecisePrefixStatus.ignoredConfig(router == null
          ? "the InferenceService has no router to configure "
          : "it configures modelplane's default router, and this router runs an image of its own"));
    }
    Optional<PrecisePrefixSettings> read;
    try {
      read = PrecisePrefixSettings.of(custom);
    } catch (IllegalArgumentException e) {
      return PrecisePrefixOutcome.of(PrecisePrefixStatus.invalidConfig(e.getMessage()));
    }
    Container routerContainer = container(router.pod().getSpec(), DefaultRouter.CONTAINER);
    List<String> args = new ArrayList<>(routerContainer.getArgs());
    args.removeIf(a -> a.startsWith("--config-text="));
    args.add("--config-text=" + custom);
    routerContainer.setArgs(args);
    if (read.isEmpty()) {
      return PrecisePrefixOutcome.of(null);
    }
    PrecisePrefixSettings scorer = read.get();
    String host = router.name() + "." + isvc.getMetadata().getNamespace() + ".svc";
    int poolPort = components.getFirst().servingPort();
    Set<String> problems = new LinkedHashSet<>();
    for (ComponentPlan c : components) {
      if (!c.component().equals(ComponentPlanner.ROUTER)) {
        servers(c, scorer, new KvEventsWiring.Server(modelName, poolPort, host,
            c.mode() != ComponentModes.Mode.SERVERLESS), problems);
      }
    }
    String name = isvc.getMetadata().getName();
    String policyName = Names.child(name, "kv-events");
    Map<String, String> serverPods = Map.of(OmeLabels.INFERENCE_SERVICE, name, DefaultRouter.MODEL_SERVER_LABEL,
        "true");
    Map<String, String> routerPods = Map.of(OmeLabels.INFERENCE_SERVICE, name, OmeLabels.COMPONENT,
        ComponentPlanner.ROUTER);
    NetworkPolicy policy = null;
    List<Integer> guardable = KvEventsWiring.guardable(scorer.serverPorts(), components.stream()
        .filter(c -> !c.component().equals(ComponentPlanner.ROUTER)).map(c -> c.pod().getSpec()).toList());
    if (scorer.discoverPods() && !guardable.isEmpty()) {
      policy = KvEventsPolicy.build(policyName, isvc.getMetadata().getNamespace(), router.labels(), serverPods,
          routerPods, guardable);
    } else if (scorer.discoverPods()) {
      problems.add("metadata.annotations[" + PrecisePrefixStatus.CONFIG_ANNOTATION + "]: no NetworkPolicy guards "
          + "the servers' event sockets, whose ports are the servers' own");
    } else if (scorer.centralPort() > 0) {
      int port = scorer.centralPort();
      List<ContainerPort> ports = new ArrayList<>(routerContainer.getPorts() == null ? List.of()
          : routerContainer.getPorts());
      String taken = KvEventsWiring.portName(ports, port);
      if (router.mode() == ComponentModes.Mode.SERVERLESS) {
        problems.add("spec.router: a serverless router (minReplicas: 0) is a Knative Service, which carries one "
            + "port, so the servers cannot reach its events port and none is rendered; keep minReplicas at 1 or "
            + "more, or let the router discover the pods (kvEventsConfig.discoverPods: true)");
      } else if (taken != null) {
        problems.add(KvEventsWiring.centralPortTaken(port, taken));
      } else {
        ports.add(new ContainerPortBuilder().withName(KvEventsWiring.EVENTS_PORT).withContainerPort(port)
            .withProtocol("TCP").build());
        routerContainer.setPorts(ports);
        policy = KvEventsPolicy.build(policyName, isvc.getMetadata().getNamespace(), router.labels(), routerPods,
            serverPods, List.of(port));
      }
      if (router.maxReplicas() > 1) {
        problems.add("spec.router.maxReplicas: each server connects to one of up to " + router.maxReplicas()
            + " router replicas through the Service, so the others never see its events; let the router discover "
            + "the pods (kvEventsConfig.discoverPods: true) or keep one replica");
      }
    }
    if (policy != null && KvEventsPolicy.optedOut(annotations, problems)) {
      policy = null;
    }
    String tokenizer = tokenizer(annotations.get(TokenizerSource.ANNOTATION), location, router.pod().getSpec(),
        routerContainer, problems);
    if (!problems.isEmpty()) {
      return new PrecisePrefixOutcome(PrecisePrefixStatus.conflicting(new ArrayList<>(problems)), policy);
    }
    return new PrecisePrefixOutcome(PrecisePrefixStatus.configured(PrecisePrefixStatus.flow(scorer, host) + "; "
        + tokenizer), policy);
  }

  /**
   * The plan with its KV-events NetworkPolicy, if any, settled among the namespace's policies
   * ({@link KvEventsPolicy#settle}) against the pod templates of its workloads, with the routers' egress allowance
   * when the namespace restricts their egress (removed with the rest of the applied objects when no longer planned).
   */
  static OmePlan settle(OmePlan plan, List<NetworkPolicy> namespacePolicies) {
    List<Map<String, String>> pods = PodTemplateLabels.of(plan.objects());
    List<HasMetadata> objects = new ArrayList<>();
    PrecisePrefixStatus status = plan.precisePrefix();
    for (HasMetadata object : plan.objects()) {
      if (object instanceof NetworkPolicy policy && KvEventsPolicy.marked(policy)) {
        KvEventsPolicy.Settled settled = KvEventsPolicy.settle(policy, pods, namespacePolicies);
        objects.add(settled.policy());
        if (settled.egress() != null) {
          objects.add(settled.egress());
        }
        if (settled.problem() != null && status != null) {
          status = status.with(settled.problem());
        }
      } else {
        objects.add(object);
      }
    }
    return new OmePlan(plan.runtime(), plan.components(), objects, plan.entry(), plan.virtual(),
        plan.clusterRuntime(), status);
  }

  /** Wires the serving container of one engine or decoder component, or says why it cannot. */
  private static void servers(ComponentPlan c, PrecisePrefixSettings scorer, KvEventsWiring.Server server,
      Set<String> problems) {
    String field = "spec." + c.component();
    Container main = container(c.pod().getSpec(), c.mainContainer());
    AdapterFlags.Server kind = AdapterFlags.serverOf(main);
    if (kind != AdapterFlags.Server.VLLM) {
      problems.add(field + ": the container " + main.getName() + " runs " + (kind == null ? "a server other than "
          + "vLLM" : "SGLang") + ", whose KV-cache events the router does not read; it is left as it is");
      return;
    }
    if (shellCommandLine(main.getCommand(), main.getArgs())) {
      problems.add(field + ": the container " + main.getName() + " runs a shell command line, which the operator "
          + "does not edit; add " + VllmFlags.KV_EVENTS_CONFIG + ", " + VllmFlags.PREFIX_CACHING_HASH_ALGO + " "
          + KvEventsWiring.HASH_ALGO + ", " + VllmFlags.BLOCK_SIZE + " " + scorer.blockSize() + " and "
          + KvEventsWiring.HASH_SEED_ENV + " yourself");
      return;
    }
    List<String> args = main.getArgs() == null ? List.of() : main.getArgs();
    String served = KvEventsWiring.value(args, VllmFlags.SERVED_MODEL_NAME);
    var named = new KvEventsWiring.Server(served == null || served.isBlank() ? server.model() : served,
        server.poolPort(), server.pickerHost(), server.declarePorts());
    KvEventsWiring.apply(main, scorer, named).forEach(p -> problems.add(field + ": " + p));
  }

  /**
   * Whether the container runs a shell script ({@code sh -c}, {@code bash -lc}, {@code sh -ec}, {@code /usr/bin/env
   * bash -c}, or {@code command: [sh]} with {@code args: [-c, ...]}): flags appended after the script become its
   * {@code $0}, {@code $1}... and never reach vLLM.
   */
  static boolean shellCommandLine(List<String> command, List<String> args) {
    List<String> line = new ArrayList<>(command == null ? List.of() : command);
    line.addAll(args == null ? List.of() : args);
    int i = 0;
    if (!line.isEmpty() && ENV.matcher(line.getFirst()).matches()) {
      i = 1;
      while (i < line.size() && (line.get(i).startsWith("-") || line.get(i).contains("="))) {
        i++;
      }
    }
    if (i >= line.size() || !SHELL.matcher(line.get(i)).matches()) {
      return false;
    }
    for (i++; i < line.size() && line.get(i).matches("[-+][^-].*"); i++) {
      String option = line.get(i);
      if (option.equals("-o") || option.equals("+o")) {
        i++; // takes the option's name: -o pipefail
      } else if (option.startsWith("-") && option.indexOf('c') > 0) {
        return true;
      }
    }
    return false;
  }

  private static String tokenizer(String annotation, Supplier<ModelLocation> location, PodSpec pod,
      Container router, Set<String> problems) {
    TokenizerSource source;
    String from;
    if (annotation != null && !annotation.isBlank()) {
      try {
        source = TokenizerSource.parse(annotation);
      } catch (IllegalArgumentException e) {
        problems.add("metadata.annotations[" + TokenizerSource.ANNOTATION + "]: " + e.getMessage());
        return "";
      }
      from = annotation.strip();
    } else if (location.get() instanceof ModelLocation.Claim claim) {
      source = new TokenizerSource(null, claim.claim(), claim.subPath());
      from = "the model's claim " + claim.claim();
    } else {
      return "no tokenizer (the model lies in a node directory and annotation " + TokenizerSource.ANNOTATION
          + " is unset): prompts are scored from the approximate index unless given as token ids";
    }
    router.getArgs().add(source.flag());
    if (source.mounted()) {
      List<VolumeMount> mounts = new ArrayList<>(router.getVolumeMounts() == null
          ? List.of() : router.getVolumeMounts());
      mounts.add(source.mount());
      router.setVolumeMounts(mounts);
      List<Volume> volumes = new ArrayList<>(pod.getVolumes() == null ? List.of()
          : pod.getVolumes());
      volumes.add(source.volume());
      pod.setVolumes(volumes);
    }
    return "tokenizer from " + from;
  }

  private static Container container(PodSpec pod, String name) {
    return pod.getContainers().stream().filter(c -> c.getName().equals(name)).findFirst()
        .orElse(pod.getContainers().getFirst());
  }
}
