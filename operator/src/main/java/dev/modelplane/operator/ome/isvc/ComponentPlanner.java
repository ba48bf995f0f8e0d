package dev.modelplane.operator.ome.isvc;

import dev.modelplane.api.ome.v1beta1.AcceleratorModelConfig;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.api.ome.v1beta1.MultiNodeComponentSpec;
import dev.modelplane.api.ome.v1beta1.RouterSpec;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.WorkloadPolicy;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns one merged component into a {@link ComponentPlan}: placeholders resolved, accelerator settings applied, the
 * router's {@code config} as environment, the default router where none is configured, the model (and a fine-tuned
 * weight) wired in, the operator's restricted pod security merged in, and OME's labels and annotations on objects
 * and pods.
 */
final class ComponentPlanner {
  static final String ENGINE = "engine";
  static final String DECODER = "decoder";
  static final String ROUTER = "router";
  static final int DEFAULT_PORT = 8080;

  private final InferenceService isvc;
  private final InferenceServiceSpec spec;
  private final ServedModel model;
  private final String runtimeName;
  private final OperatorSettings settings;
  private boolean defaultRouter;

  ComponentPlanner(InferenceService isvc, InferenceServiceSpec spec, ServedModel model, String runtimeName,
      OperatorSettings settings) {
    this.isvc = isvc;
    this.spec = spec;
    this.model = model;
    this.runtimeName = runtimeName;
    this.settings = settings;
  }

  /** The accelerator class a component runs on: its override, the service's selector, or its annotation. */
  static String acceleratorClass(InferenceService isvc, MultiNodeComponentSpec component) {
    if (component != null && component.getAcceleratorOverride() != null
        && component.getAcceleratorOverride().acceleratorClass() != null) {
      return component.getAcceleratorOverride().acceleratorClass();
    }
    InferenceServiceSpec spec = isvc.getSpec();
    if (spec != null && spec.acceleratorSelector() != null && spec.acceleratorSelector().acceleratorClass() != null) {
      return spec.acceleratorSelector().acceleratorClass();
    }
    return isvc.getMetadata().getAnnotations() == null ? null
        : isvc.getMetadata().getAnnotations().get(dev.modelplane.operator.ome.runtime.RuntimeRequest
            .ACCELERATOR_ANNOTATION);
  }

  /** The node label the model agent sets on nodes holding a FineTunedWeight. */
  static String fineTunedWeightLabel(String name) {
    return BaseModelKey.fineTunedWeight(name).labelKey();
  }

  ComponentPlan plan(String component, ComponentMerge.Merged merged, ComponentModes.Mode mode,
      AcceleratorModelConfig accelerator, boolean prefillDecode) {
    String name = OmeServingPlanner.componentName(isvc.getMetadata().getName(), component);
    PodSpec pod = PodTemplating.resolve(merged.leader() != null ? merged.leader() : merged.pod(), isvc.getMetadata());
    PodSpec worker = merged.worker() == null ? null : PodTemplating.resolve(merged.worker(), isvc.getMetadata());
    boolean router = component.equals(ROUTER);
    if (router) {
      routerDefaults(pod, (RouterSpec) merged.spec(), prefillDecode);
    }
    // Each pod's serving container, resolved once: the one the runtime names, else the first. Wiring copies the pod,
    // so from here on it is found by its name.
    Container serving = ModelWiring.mainContainer(pod, merged.mainContainer());
    Container workerServing = worker == null ? null : ModelWiring.mainContainer(worker, merged.mainContainer());
    if (!router) {
      AcceleratorOverrides.apply(serving, accelerator);
      if (worker != null) {
        AcceleratorOverrides.apply(workerServing, accelerator);
      }
    }
    if (pod.getContainers() == null || pod.getContainers().isEmpty()
        || pod.getContainers().stream().anyMatch(c -> c.getImage() == null || c.getImage().isBlank())) {
      throw new IllegalArgumentException("spec." + component + ": the " + component + " has a container without an "
          + "image; give one in spec." + component + ".runner.image or choose a runtime whose " + component
          + "Config sets it");
    }
    String main = serving == null ? null : serving.getName();
    String workerMain = workerServing == null ? null : workerServing.getName();
    Set<WorkloadPolicy.OperatorHostPath> hostPaths = new HashSet<>();
    pod = harden(wire(pod, main, component, merged.workerSize(), hostPaths), router ? null : main);
    if (worker != null) {
      worker = harden(wire(worker, workerMain, component, merged.workerSize(), hostPaths), router ? null : workerMain);
    }
    Map<String, String> labels = OmeLabels.labels(isvc, component, merged.spec().getLabels(), model, runtimeName);
    Map<String, String> annotations = OmeLabels.annotations(isvc, merged.spec().getAnnotations(), model,
        runtimeName);
    Map<String, String> podLabels = new LinkedHashMap<>(labels);
    if (!component.equals(ROUTER)) {
      podLabels.put(DefaultRouter.MODEL_SERVER_LABEL, "true");
      if (prefillDecode) {
        podLabels.put(DefaultRouter.ROLE_LABEL, component.equals(ENGINE) ? "prefill" : "decode");
      }
    }
    int port = serving == null || serving.getPorts() == null || serving.getPorts().isEmpty() ? DEFAULT_PORT
        : serving.getPorts().getFirst().getContainerPort();
    return new ComponentPlan(isvc.getMetadata().getName(), component, name, mode, template(pod, podLabels,
        annotations), worker == null ? null : template(worker, podLabels, annotations), merged.workerSize(),
        merged.spec(), labels, annotations, isvc.getMetadata().getAnnotations(),
        merged.spec().getKedaConfig() != null ? merged.spec().getKedaConfig() : spec.kedaConfig(),
        router ? 2 : 3, port, main, hostPaths);
  }

  /** Whether the router component runs modelplane's router (known once the router was planned). */
  boolean defaultRouter() {
    return defaultRouter;
  }

  /** Where the served model's files are: the merged weights' for merged fine-tuned serving, else the model's. */
  ModelLocation modelLocation() {
    String ns = isvc.getMetadata().getNamespace();
    var weight = model.fineTuned();
    return model.mergedWeights()
        ? ModelLocation.of(weight.getSpec().storage(), ns, "FineTunedWeight " + weight.getMetadata().getName()
            + " spec.storage", fineTunedWeightLabel(weight.getMetadata().getName()), model.weightDir())
        : ModelLocation.of(model.spec().storage(), ns, model.key() + " spec.storage", model.key().labelKey(),
            model.modelDir());
  }

  /** The router's identity, and the InferencePool the default router serves. */
  List<HasMetadata> routerObjects(List<ComponentPlan> components) {
    ComponentPlan router = components.stream().filter(c -> c.component().equals(ROUTER)).findFirst().orElse(null);
    if (router == null) {
      return List.of();
    }
    List<HasMetadata> objects = new ArrayList<>(RouterAccess.objects(isvc.getMetadata().getName(),
        isvc.getMetadata().getNamespace(), router.labels(), defaultRouter));
    if (defaultRouter) {
      objects.add(DefaultRouter.pool(isvc.getMetadata().getName(), router.name(),
          components.getFirst().servingPort(), router.labels()));
    }
    return objects;
  }

  private void routerDefaults(PodSpec pod, RouterSpec router, boolean prefillDecode) {
    List<Container> containers = pod.getContainers() == null ? new ArrayList<>() : new ArrayList<>(
        pod.getContainers());
    boolean noImage = containers.isEmpty() || containers.stream().allMatch(c -> c.getImage() == null
        || c.getImage().isBlank());
    if (noImage) {
      defaultRouter = true;
      Container ours = DefaultRouter.container(settings.omeServing().routerImage(), isvc.getMetadata().getName(),
          prefillDecode);
      containers.removeIf(c -> c.getImage() == null || c.getImage().isBlank());
      containers.addFirst(ours);
    }
    if (router.getConfig() != null && !router.getConfig().isEmpty()) {
      Container main = containers.getFirst();
      List<EnvVar> env = main.getEnv() == null ? new ArrayList<>() : new ArrayList<>(main.getEnv());
      router.getConfig().forEach((k, v) -> {
        env.removeIf(e -> k.equals(e.getName()));
        env.add(new EnvVar(k, v, null));
      });
      main.setEnv(env);
    }
    pod.setContainers(containers);
    if (pod.getServiceAccountName() == null) {
      pod.setServiceAccountName(RouterAccess.name(isvc.getMetadata().getName()));
    }
  }

  /**
   * The pod with the model wired in; the hostPath volumes the wiring added (not in the pod before) are put in
   * {@code hostPaths}, as the operator's own.
   */
  private PodSpec wire(PodSpec pod, String main, String component, int workerSize,
      Set<WorkloadPolicy.OperatorHostPath> hostPaths) {
    String ns = isvc.getMetadata().getNamespace();
    boolean merged = model.mergedWeights();
    var weight = model.fineTuned();
    ModelLocation location = modelLocation();
    ModelLocation adapter = null;
    String adapterName = null;
    if (weight != null && !merged) {
      adapterName = weight.getMetadata().getName();
      adapter = ModelLocation.of(weight.getSpec().storage(), ns, "FineTunedWeight " + adapterName + " spec.storage",
          fineTunedWeightLabel(adapterName), model.weightDir());
      if (adapter instanceof ModelLocation.InImage) {
        throw new IllegalArgumentException("FineTunedWeight " + adapterName + " spec.storage.storageUri: vendor:// "
            + "weights come with an image, so there are no adapter files to load; use merged weights "
            + "(configuration.merged_weights: true) or another storage");
      }
    }
    boolean serving = !component.equals(ROUTER);
    Set<Volume> before = new HashSet<>(pod.getVolumes() == null ? List.of() : pod.getVolumes());
    PodSpec wired = ModelWiring.wire(pod, new ModelWiring.Wiring(merged ? weight.getMetadata().getName()
        : model.name(), location, serving ? adapter : null, adapterName, serving, main, workerSize));
    for (Volume v : wired.getVolumes() == null ? List.<Volume>of() : wired.getVolumes()) {
      if (v.getHostPath() != null && !before.contains(v)) {
        hostPaths.add(new WorkloadPolicy.OperatorHostPath(v.getName(), v.getHostPath().getPath()));
      }
    }
    if (serving && adapter != null) {
      Container container = ModelWiring.mainContainer(wired, main);
      if ("tfew".equals(model.strategy())) {
        container.getEnv().add(new EnvVar("TFEW_PATH", ModelWiring.adapterPath(adapterName), null));
      } else {
        AdapterFlags.add(container, adapterName, ModelWiring.adapterPath(adapterName));
      }
    }
    return wired;
  }

  /**
   * The operator's restricted defaults merged under what the runtime and the InferenceService set; the serving
   * container ({@code server}, null for none) gets a writable home.
   */
  private PodSpec harden(PodSpec pod, String server) {
    return settings.securityDefaults().harden(pod, server == null ? Set.of() : Set.of(server));
  }

  private static PodTemplateSpec template(PodSpec pod, Map<String, String> labels, Map<String, String> annotations) {
    return new PodTemplateSpecBuilder().withNewMetadata().withLabels(labels).withAnnotations(annotations)
        .endMetadata().withSpec(pod).build();
  }
}
