package dev.modelplane.operator.ome.benchmark;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.api.ome.v1beta1.BenchmarkJobSpec;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.ProjectVersion;
import dev.modelplane.operator.common.ControllerReference;
import dev.modelplane.operator.common.OperatorLabels;
import dev.modelplane.operator.common.SecurityDefaults;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeBuilder;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.VolumeMountBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Job of a BenchmarkJob: the init container {@code benchmark} runs genai-bench into the results volume, then the
 * container {@code results} summarises the experiment folder into its termination message, which the operator reads
 * into the BenchmarkJob's status.
 */
final class BenchmarkJobBuilder {
  /** Label on the Job and its pods naming the BenchmarkJob, as OME sets it. */
  static final String LABEL = "benchmark";
  static final String BENCHMARK_CONTAINER = "benchmark";
  static final String RESULTS_CONTAINER = "results";
  /** The Secret key holding the Hugging Face token, as in OME. */
  static final String HF_KEY = "HUGGINGFACE_API_KEY";
  /** The variable a podOverride sets (e.g. from a Secret) to give the key of an endpoint given by URL. */
  static final String OPENAI_KEY = "OPENAI_API_KEY";
  /** The variable genai-bench takes the model API key from, before {@code --api-key}. */
  static final String MODEL_KEY = "MODEL_API_KEY";
  /** The key of an endpoint that checks none. */
  static final String KEY_PLACEHOLDER = "none";
  static final String TOKENIZER_VOLUME = "model";

  private BenchmarkJobBuilder() {
  }

  /** The result folder: {@code resultFolderName}, else the benchmark's name and the start of its uid. */
  static String folder(BenchmarkJob job) {
    BenchmarkJobSpec spec = job.getSpec();
    if (spec.resultFolderName() != null && !spec.resultFolderName().isBlank()) {
      return spec.resultFolderName();
    }
    String uid = job.getMetadata().getUid();
    return uid == null ? job.getMetadata().getName()
        : job.getMetadata().getName() + "-" + uid.substring(0, Math.min(8, uid.length()));
  }

  /** Where the full report is: the output location followed by the result folder. */
  static String reportLocation(BenchmarkJob job) {
    String uri = job.getSpec().outputLocation().storageUri();
    return (uri.endsWith("/") ? uri : uri + "/") + folder(job);
  }

  /**
   * The Job running {@code job} against {@code target} (whose model name is known).
   *
   * @throws BenchmarkConfigException when the output location or dataset cannot be used
   */
  static Job build(BenchmarkJob job, BenchmarkTarget target, OperatorSettings settings) {
    String name = job.getMetadata().getName();
    String namespace = job.getMetadata().getNamespace();
    BenchmarkJobSpec spec = job.getSpec();
    String folder = folder(job);
    StorageWiring output = StorageWiring.output(spec.outputLocation(), namespace);
    StorageWiring dataset = spec.dataset() == null ? null : StorageWiring.dataset(spec.dataset(), namespace);
    List<String> argv = BenchmarkArgs.of(spec, target, folder, output, dataset);

    List<EnvVar> env = new ArrayList<>();
    env.add(new EnvVarBuilder().withName("ENABLE_UI").withValue("false").build());
    env.add(new EnvVarBuilder().withName("HOME").withValue(SecurityDefaults.HOME_PATH).build());
    if (BenchmarkArgs.keyFromEnv(target)) {
      // genai-bench's OpenAI backend wants a key; a podOverride env entry of this name (e.g. from a Secret) replaces
      // the placeholder for endpoints that check it, and reaches genai-bench as MODEL_API_KEY (see modelKey).
      env.add(new EnvVarBuilder().withName(OPENAI_KEY).withValue(KEY_PLACEHOLDER).build());
    }
    if (spec.huggingFaceSecretReference() != null) {
      env.add(new EnvVarBuilder().withName(HF_KEY).withNewValueFrom().withNewSecretKeyRef()
          .withName(spec.huggingFaceSecretReference().name()).withKey(HF_KEY).endSecretKeyRef().endValueFrom()
          .build());
    }
    List<VolumeMount> mounts = new ArrayList<>(output.mounts());
    mounts.add(new VolumeMountBuilder().withName(SecurityDefaults.HOME_VOLUME).withMountPath(SecurityDefaults.HOME_PATH)
        .build());
    List<Volume> volumes = new ArrayList<>(output.volumes());
    volumes.add(new VolumeBuilder().withName(SecurityDefaults.HOME_VOLUME).withNewEmptyDir().endEmptyDir().build());
    env.addAll(output.env());
    if (dataset != null) {
      env.addAll(dataset.env());
      mounts.addAll(dataset.mounts());
      volumes.addAll(dataset.volumes());
    }
    Map<String, String> nodeSelector = new LinkedHashMap<>();
    if (target.tokenizer() != null) {
      String path = target.tokenizer().path();
      env.add(new EnvVarBuilder().withName("MODEL_PATH").withValue(path).build());
      volumes.add(new VolumeBuilder().withName(TOKENIZER_VOLUME).withNewHostPath().withPath(path).endHostPath()
          .build());
      mounts.add(new VolumeMountBuilder().withName(TOKENIZER_VOLUME).withMountPath(path).withReadOnly(true).build());
      nodeSelector.putAll(target.tokenizer().nodeSelector());
    }
    var bs = settings.benchmark();
    Map<String, Quantity> resources = Map.of("cpu", new Quantity(bs.cpu()), "memory", new Quantity(bs.memory()));
    Container benchmark = new ContainerBuilder().withName(BENCHMARK_CONTAINER).withImage(bs.image())
        .withCommand(argv.get(0)).withArgs(argv.subList(1, argv.size())).withEnv(env).withVolumeMounts(mounts)
        .withNewResources().withRequests(resources).withLimits(resources).endResources()
        .withTerminationMessagePolicy("FallbackToLogsOnError").build();
    VolumeMount resultsMount = output.mounts().get(0);
    Container results = new ContainerBuilder().withName(RESULTS_CONTAINER).withImage(ProjectVersion.image())
        .withArgs("bench", "summarize", "--experiment-dir", StorageWiring.RESULTS_DIR + "/" + folder)
        .withVolumeMounts(new VolumeMountBuilder(resultsMount).withReadOnly(true).build())
        .withNewResources().withRequests(Map.of("cpu", new Quantity("100m"), "memory", new Quantity("256Mi")))
        .withLimits(Map.of("memory", new Quantity("512Mi"))).endResources()
        .withTerminationMessagePolicy("FallbackToLogsOnError").build();
    PodSpec pod = new PodSpecBuilder().withRestartPolicy("Never")
        .withTolerations(new TolerationBuilder().withKey("nvidia.com/gpu").withOperator("Exists")
            .withEffect("NoSchedule").build())
        .withNodeSelector(nodeSelector.isEmpty() ? null : nodeSelector)
        .withVolumes(volumes).build();
    PodOverrideMerge.apply(spec.podOverride(), pod, benchmark);
    if (BenchmarkArgs.keyFromEnv(target)) {
      modelKey(benchmark);
    }
    pod.setInitContainers(dataset != null && dataset.fetch() != null ? List.of(dataset.fetch(), benchmark)
        : List.of(benchmark));
    pod.setContainers(List.of(results));
    settings.securityDefaults().harden(pod, Set.of());
    Map<String, String> labels = Map.of(LABEL, name, OperatorLabels.MANAGED_BY, OperatorLabels.MANAGED_BY_VALUE);
    Job built = new JobBuilder().withNewMetadata().withName(name).withNamespace(namespace).withLabels(labels)
        .endMetadata()
        .withNewSpec().withBackoffLimit(0)
        .withNewTemplate().withNewMetadata().withLabels(labels).endMetadata().withSpec(pod).endTemplate()
        .endSpec().build();
    ControllerReference.set(built, job);
    return built;
  }

  /**
   * Adds {@code MODEL_API_KEY} with the same value or source as the container's final {@code OPENAI_API_KEY} (unless
   * a podOverride set it itself): genai-bench reads it in place of its {@code --api-key} argument, which then only
   * holds a placeholder.
   */
  private static void modelKey(Container benchmark) {
    List<EnvVar> env = new ArrayList<>(benchmark.getEnv());
    if (env.stream().anyMatch(e -> MODEL_KEY.equals(e.getName()))) {
      return;
    }
    env.stream().filter(e -> OPENAI_KEY.equals(e.getName())).findFirst()
        .ifPresent(key -> env.add(new EnvVarBuilder(key).withName(MODEL_KEY).build()));
    benchmark.setEnv(env);
  }
}
