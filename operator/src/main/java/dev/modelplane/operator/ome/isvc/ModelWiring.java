package dev.modelplane.operator.ome.isvc;

import dev.modelplane.operator.common.Names;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.ProbeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Connects a serving pod to its model, as OME does: the model's volume (the agent's node directory, mounted
 * read-only at the same path, or the claim at {@code /opt/ml/model}), a node selector on the agent's Ready label so
 * pods only land where the files are, {@code MODEL_PATH} and {@code PARALLELISM_SIZE} (GPUs per pod times pods per
 * replica) for the runtime's arguments,
 * and a TCP readiness probe on the main container when the runtime gives none. Works on a copy; the input is not
 * changed.
 */
final class ModelWiring {
  static final String MODEL_PATH = "MODEL_PATH";
  static final String PARALLELISM_SIZE = "PARALLELISM_SIZE";
  static final String GPU = "nvidia.com/gpu";
  /** Where a LoRA adapter served on top of the base model is mounted. */
  static final String ADAPTER_ROOT = "/opt/ml/adapters";
  private static final String READY = "Ready";

  private ModelWiring() {
  }

  /**
   * What to wire into one pod.
   *
   * @param modelName name of the base model (the volume's name) or of the merged fine-tuned weight
   * @param model where the served model's files are
   * @param adapter where a LoRA adapter's files are, or null
   * @param adapterName the adapter's name (its mount directory and served name), or null
   * @param mountModel whether the main container mounts the files (the router gets a claim's volume only, and no
   *     node directory's)
   * @param mainContainer the name of the container that serves the model
   * @param workerSize worker pods per replica (0 unless multi-node)
   */
  record Wiring(String modelName, ModelLocation model, ModelLocation adapter, String adapterName, boolean mountModel,
      String mainContainer, int workerSize) {
  }

  /** The pod spec with the model wired in. */
  static PodSpec wire(PodSpec pod, Wiring wiring) {
    PodSpec out = PodSpecCopy.of(pod);
    List<Volume> volumes = out.getVolumes() == null ? new ArrayList<>() : new ArrayList<>(out.getVolumes());
    String volumeName = Names.dnsLabel(wiring.modelName());
    // A container that does not mount the model gets no hostPath volume: it would serve nothing and keep the pod from
    // meeting the "restricted" (or even "baseline") Pod Security Standard.
    boolean modelVolume = !(wiring.model() instanceof ModelLocation.InImage)
        && (wiring.mountModel() || !(wiring.model() instanceof ModelLocation.HostDirectory));
    if (modelVolume) {
      addVolume(volumes, volume(volumeName, wiring.model()));
    }
    String adapterVolume = null;
    if (wiring.adapter() != null) {
      adapterVolume = Names.dnsLabel("adapter-" + wiring.adapterName());
      addVolume(volumes, volume(adapterVolume, wiring.adapter()));
    }
    out.setVolumes(volumes);
    Map<String, String> selector = out.getNodeSelector() == null ? new LinkedHashMap<>()
        : new LinkedHashMap<>(out.getNodeSelector());
    for (ModelLocation location : new ModelLocation[] {wiring.model(), wiring.adapter()}) {
      if (location instanceof ModelLocation.HostDirectory dir && dir.nodeLabel() != null) {
        selector.put(dir.nodeLabel(), READY);
      }
    }
    out.setNodeSelector(selector.isEmpty() ? null : selector);
    if (!wiring.mountModel()) {
      return out;
    }
    Container main = mainContainer(out, wiring.mainContainer());
    if (main == null) {
      return out;
    }
    List<VolumeMount> mounts = main.getVolumeMounts() == null ? new ArrayList<>()
        : new ArrayList<>(main.getVolumeMounts());
    if (!(wiring.model() instanceof ModelLocation.InImage)) {
      addMount(mounts, mount(volumeName, wiring.model(), wiring.model().containerPath()));
    }
    if (adapterVolume != null) {
      addMount(mounts, mount(adapterVolume, wiring.adapter(), adapterPath(wiring.adapterName())));
    }
    main.setVolumeMounts(mounts);
    List<EnvVar> env = main.getEnv() == null ? new ArrayList<>() : new ArrayList<>(main.getEnv());
    putIfAbsent(env, MODEL_PATH, wiring.model().containerPath());
    // OME leaves PARALLELISM_SIZE to the AcceleratorClass when one is chosen; accelerator classes here are names
    // only (no AcceleratorClass objects), so the GPUs the container asks for always decide it.
    long gpus = gpus(main);
    if (gpus > 0) {
      putIfAbsent(env, PARALLELISM_SIZE, Long.toString(gpus * (1 + wiring.workerSize())));
    }
    main.setEnv(env);
    if (main.getReadinessProbe() == null && main.getPorts() != null && !main.getPorts().isEmpty()) {
      ContainerPort port = main.getPorts().getFirst();
      main.setReadinessProbe(new ProbeBuilder().withNewTcpSocket().withPort(new IntOrString(port.getContainerPort()))
          .endTcpSocket().build());
    }
    return out;
  }

  /** Where an adapter is mounted in the serving container. */
  static String adapterPath(String adapterName) {
    return ADAPTER_ROOT + "/" + adapterName;
  }

  /** The serving container: the one named {@code name}, else the first. */
  static Container mainContainer(PodSpec pod, String name) {
    if (pod.getContainers() == null || pod.getContainers().isEmpty()) {
      return null;
    }
    return pod.getContainers().stream().filter(c -> c.getName() != null && c.getName().equals(name)).findFirst()
        .orElse(pod.getContainers().getFirst());
  }

  /** The container's GPU limit, else its request; 0 when it asks for none. */
  static long gpus(Container container) {
    if (container.getResources() == null) {
      return 0;
    }
    Quantity q = container.getResources().getLimits() == null ? null : container.getResources().getLimits().get(GPU);
    if (q == null && container.getResources().getRequests() != null) {
      q = container.getResources().getRequests().get(GPU);
    }
    return q == null ? 0 : count(q);
  }

  /**
   * A count quantity as a whole number, saturating at {@code Long.MAX_VALUE}. A decimal exponent ({@code 1e99999999})
   * is compared, never expanded digit by digit as fabric8's conversion does (minutes for a hostile spec).
   */
  static long count(Quantity q) {
    String format = q.getFormat() == null ? "" : q.getFormat();
    BigDecimal value;
    try {
      value = format.length() > 1 && (format.startsWith("e") || format.startsWith("E")) ? new BigDecimal(q.getAmount() + format)
          : Quantity.getAmountInBytes(q);
    } catch (NumberFormatException | ArithmeticException e) {
      return 0;
    }
    if (value.signum() <= 0) {
      return 0;
    }
    return value.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE
        : value.setScale(0, RoundingMode.CEILING).longValue();
  }

  private static Volume volume(String name, ModelLocation location) {
    return switch (location) {
      case ModelLocation.HostDirectory dir -> new VolumeBuilder().withName(name).withNewHostPath()
          .withPath(dir.path()).endHostPath().build();
      case ModelLocation.Claim claim -> new VolumeBuilder().withName(name).withNewPersistentVolumeClaim()
          .withClaimName(claim.claim()).withReadOnly(true).endPersistentVolumeClaim().build();
      case ModelLocation.InImage image -> throw new IllegalArgumentException("the image holds the files: no volume");
    };
  }

  private static VolumeMount mount(String volume, ModelLocation location, String path) {
    VolumeMountBuilder b = new VolumeMountBuilder().withName(volume).withMountPath(path).withReadOnly(true);
    if (location instanceof ModelLocation.Claim claim && !claim.subPath().isEmpty()) {
      b.withSubPath(claim.subPath());
    }
    return b.build();
  }

  private static void addVolume(List<Volume> volumes, Volume volume) {
    volumes.removeIf(v -> volume.getName().equals(v.getName()));
    volumes.add(volume);
  }

  private static void addMount(List<VolumeMount> mounts, VolumeMount mount) {
    if (mounts.stream().noneMatch(m -> mount.getMountPath().equals(m.getMountPath()))) {
      mounts.add(mount);
    }
  }

  private static void putIfAbsent(List<EnvVar> env, String name, String value) {
    if (env.stream().noneMatch(e -> name.equals(e.getName()))) {
      env.add(new EnvVarBuilder().withName(name).withValue(value).build());
    }
  }
}
