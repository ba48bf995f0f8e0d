package dev.modelplane.operator.ome.benchmark;

import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.argv;
import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.benchmark;
import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.benchmarkContainer;
import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.urlBenchmark;
import static dev.modelplane.operator.ome.benchmark.BenchmarkFixtures.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.ome.v1beta1.BenchmarkJob;
import dev.modelplane.operator.BenchmarkSettings;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.ProjectVersion;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BenchmarkJobBuilderTest {
  private static final OperatorSettings SETTINGS = OperatorSettings.defaults();
  private static final BenchmarkTarget URL_TARGET = EndpointResolver.url(
      urlBenchmark("").getSpec().endpoint().endpoint()).target();

  private static Job build(BenchmarkJob job) {
    return BenchmarkJobBuilder.build(job, URL_TARGET, SETTINGS);
  }

  @Test
  void aUrlEndpointRunsGenaiBenchWithOmesArgumentsAndTheDefaultTextScenarios() {
    Job job = build(urlBenchmark(""));
    assertThat(argv(job)).containsExactly("genai-bench", "benchmark",
        "--api-backend", "openai", "--api-base", "http://llm.example.com:8000", "--api-model-name", "llama",
        "--task", "text-to-text", "--max-time-per-run", "5", "--max-requests-per-run", "100",
        "--api-key", "none", "--model-tokenizer", "llama",
        "--traffic-scenario", "N(480,240)/(300,150)", "--traffic-scenario", "D(100,100)",
        "--traffic-scenario", "D(100,1000)", "--traffic-scenario", "D(2000,200)", "--traffic-scenario", "D(7800,200)",
        "--experiment-base-dir", "/benchmark-results", "--experiment-folder-name", "chat-01234567");
  }

  @Test
  void theJobIsOwnedNeverRetriedAndSummarisesIntoTheResultsContainersTerminationMessage() {
    Job job = build(urlBenchmark(""));
    assertThat(job.getMetadata().getName()).isEqualTo("chat");
    assertThat(job.getMetadata().getNamespace()).isEqualTo("bench");
    assertThat(job.getMetadata().getLabels()).containsEntry("benchmark", "chat")
        .containsEntry("app.kubernetes.io/managed-by", "modelplane");
    assertThat(job.getMetadata().getOwnerReferences()).singleElement().satisfies(o -> {
      assertThat(o.getKind()).isEqualTo("BenchmarkJob");
      assertThat(o.getUid()).isEqualTo(BenchmarkFixtures.UID);
      assertThat(o.getController()).isTrue();
    });
    assertThat(job.getSpec().getBackoffLimit()).isZero();
    assertThat(job.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("benchmark", "chat");
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getRestartPolicy()).isEqualTo("Never");
    assertThat(pod.getTolerations()).singleElement().satisfies(t -> {
      assertThat(t.getKey()).isEqualTo("nvidia.com/gpu");
      assertThat(t.getOperator()).isEqualTo("Exists");
      assertThat(t.getEffect()).isEqualTo("NoSchedule");
    });
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1000L);

    Container bench = benchmarkContainer(job);
    assertThat(bench.getName()).isEqualTo("benchmark");
    assertThat(bench.getImage()).isEqualTo(BenchmarkSettings.DEFAULT_IMAGE);
    assertThat(bench.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
    assertThat(bench.getResources().getRequests()).isEqualTo(Map.of("cpu", new Quantity("2"),
        "memory", new Quantity("2Gi")));
    assertThat(bench.getResources().getLimits()).isEqualTo(bench.getResources().getRequests());
    assertThat(bench.getEnv()).extracting(EnvVar::getName, EnvVar::getValue)
        .contains(org.assertj.core.groups.Tuple.tuple("ENABLE_UI", "false"));
    assertThat(bench.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(bench.getVolumeMounts()).anySatisfy(m -> {
      assertThat(m.getName()).isEqualTo("results");
      assertThat(m.getMountPath()).isEqualTo("/benchmark-results");
      assertThat(m.getSubPath()).isEqualTo("runs");
    });

    assertThat(pod.getContainers()).singleElement().satisfies(results -> {
      assertThat(results.getName()).isEqualTo("results");
      assertThat(results.getImage()).isEqualTo(ProjectVersion.image());
      assertThat(results.getArgs()).containsExactly("bench", "summarize", "--experiment-dir",
          "/benchmark-results/chat-01234567");
      assertThat(results.getTerminationMessagePolicy()).isEqualTo("FallbackToLogsOnError");
      assertThat(results.getVolumeMounts()).singleElement().satisfies(m -> {
        assertThat(m.getName()).isEqualTo("results");
        assertThat(m.getMountPath()).isEqualTo("/benchmark-results");
        assertThat(m.getSubPath()).isEqualTo("runs");
        assertThat(m.getReadOnly()).isTrue();
      });
    });
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("results")).singleElement()
        .satisfies(v -> assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("results"));
    assertThat(BenchmarkJobBuilder.reportLocation(urlBenchmark(""))).isEqualTo("pvc://results/runs/chat-01234567");
  }

  @Test
  void settingsChooseImageAndResourcesAndResultFolderNameTheFolder() {
    OperatorSettings settings = SETTINGS.toBuilder().benchmark(new BenchmarkSettings("mirror/genai-bench:1", "4",
        "8Gi", null, null)).build();
    Job job = BenchmarkJobBuilder.build(urlBenchmark("resultFolderName: nightly\n"), URL_TARGET, settings);
    assertThat(benchmarkContainer(job).getImage()).isEqualTo("mirror/genai-bench:1");
    assertThat(benchmarkContainer(job).getResources().getLimits()).containsEntry("cpu", new Quantity("4"))
        .containsEntry("memory", new Quantity("8Gi"));
    assertThat(values(argv(job), "--experiment-folder-name")).containsExactly("nightly");
  }

  @Test
  void anOmeServiceIsBenchmarkedWithItsModelDirectoryAsTokenizerOnANodeHoldingTheModel() {
    BenchmarkTarget target = new BenchmarkTarget("http://llama.serving.svc.cluster.local", "openai", "none", "llama",
        new BenchmarkTarget.Tokenizer("/mnt/models/llama", Map.of("models.ome.io/clusterbasemodel.llama", "Ready")),
        List.of());
    Job job = BenchmarkJobBuilder.build(benchmark("isvc", """
        endpoint: {inferenceService: {name: llama, namespace: serving}}
        task: text-to-text
        maxTimePerIteration: 5
        maxRequestsPerIteration: 100
        outputLocation: {storageUri: "pvc://results"}
        """), target, SETTINGS);
    List<String> argv = argv(job);
    assertThat(values(argv, "--api-base")).containsExactly("http://llama.serving.svc.cluster.local");
    assertThat(values(argv, "--api-key")).containsExactly("none");
    assertThat(values(argv, "--model-tokenizer")).containsExactly("/mnt/models/llama");
    Container bench = benchmarkContainer(job);
    assertThat(bench.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("MODEL_PATH");
      assertThat(e.getValue()).isEqualTo("/mnt/models/llama");
    });
    assertThat(bench.getVolumeMounts()).anySatisfy(m -> {
      assertThat(m.getMountPath()).isEqualTo("/mnt/models/llama");
      assertThat(m.getReadOnly()).isTrue();
    });
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getVolumes()).filteredOn(v -> v.getHostPath() != null).singleElement()
        .satisfies(v -> assertThat(v.getHostPath().getPath()).isEqualTo("/mnt/models/llama"));
    assertThat(pod.getNodeSelector()).containsEntry("models.ome.io/clusterbasemodel.llama", "Ready");
    assertThat(pod.getContainers().get(0).getVolumeMounts()).singleElement()
        .satisfies(m -> assertThat(m.getSubPath()).isNull());
  }

  @Test
  void anInferencePoolIsBenchmarkedThroughTheRoutersPoolPrefix() {
    BenchmarkTarget target = new BenchmarkTarget("http://router:8080/inference-pools/serving/llama-pool", "openai",
        "none", "meta-llama/Llama-3.1-8B-Instruct", null, List.of());
    Job job = BenchmarkJobBuilder.build(benchmark("pool", """
        endpoint: {inferencePool: {name: llama-pool, namespace: serving}}
        task: text-to-text
        maxTimePerIteration: 5
        maxRequestsPerIteration: 100
        outputLocation: {storageUri: "pvc://results"}
        """), target, SETTINGS);
    List<String> argv = argv(job);
    assertThat(values(argv, "--api-base")).containsExactly("http://router:8080/inference-pools/serving/llama-pool");
    assertThat(values(argv, "--api-model-name")).containsExactly("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(values(argv, "--model-tokenizer")).as("a Hub id when no model directory is known")
        .containsExactly("meta-llama/Llama-3.1-8B-Instruct");
    assertThat(job.getSpec().getTemplate().getSpec().getNodeSelector()).isNullOrEmpty();
  }

  static Stream<Arguments> tasks() {
    return Stream.of(
        Arguments.of("text-to-text", "text-to-text", List.of("N(480,240)/(300,150)", "D(100,100)", "D(100,1000)",
            "D(2000,200)", "D(7800,200)")),
        Arguments.of("image-to-text", "image-text-to-text", List.of("I(512,512)", "I(1024,512)", "I(2048,2048)")),
        Arguments.of("image-to-embeddings", "image-to-embeddings", List.of("I(512,512)", "I(1024,512)",
            "I(2048,2048)")),
        Arguments.of("text-to-embeddings", "text-to-embeddings", List.of("E(64)", "E(128)", "E(256)", "E(512)",
            "E(1024)")),
        Arguments.of("text-to-rerank", "text-to-rerank", List.of()),
        Arguments.of("text-to-speech", "text-to-speech", List.of()));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("tasks")
  void everyTaskGetsGenaiBenchsTaskNameAndOmesDefaultScenarios(String task, String genaiTask, List<String> defaults) {
    String dataset = task.startsWith("image-") ? "dataset: {storageUri: \"hf://lmms-lab/llava-bench\"}\n" : "";
    Job job = build(benchmark("t", """
        endpoint: {endpoint: {url: "http://llm", apiFormat: openai, modelName: m}}
        task: %s
        maxTimePerIteration: 1
        maxRequestsPerIteration: 1
        outputLocation: {storageUri: "pvc://results"}
        """.formatted(task) + dataset));
    assertThat(values(argv(job), "--task")).containsExactly(genaiTask);
    assertThat(values(argv(job), "--traffic-scenario")).containsExactlyElementsOf(defaults);
  }

  @Test
  void specScenariosConcurrencyAndServerMetadataAreEachPassed() {
    List<String> argv = argv(build(urlBenchmark("""
        trafficScenarios: ["D(10,10)", "U(50,500)/(20,200)", dataset]
        numConcurrency: [1, 8]
        serviceMetadata: {engine: SGLang, version: 0.4.6, gpuType: H100, gpuCount: 8}
        """)));
    assertThat(values(argv, "--traffic-scenario")).containsExactly("D(10,10)", "U(50,500)/(20,200)", "dataset");
    assertThat(values(argv, "--num-concurrency")).containsExactly("1", "8");
    assertThat(values(argv, "--server-engine")).containsExactly("SGLang");
    assertThat(values(argv, "--api-backend")).as("the engine's own backend keeps its parameters")
        .containsExactly("sglang");
    assertThat(values(argv, "--server-version")).containsExactly("0.4.6");
    assertThat(values(argv, "--server-gpu-type")).containsExactly("H100");
    assertThat(values(argv, "--server-gpu-count")).containsExactly("8");
  }

  @Test
  void additionalRequestParamsBecomeJsonWithNumbersAndBooleansTyped() {
    List<String> argv = argv(build(urlBenchmark("""
        additionalRequestParams: {temperature: "0.7", ignore_eos: "true", max_tokens: "256", top_p: ".9",
          stop: "###", seed: "-1"}
        """)));
    assertThat(values(argv, "--additional-request-params")).containsExactly(
        "{\"ignore_eos\":true,\"max_tokens\":256,\"seed\":-1,\"stop\":\"###\",\"temperature\":0.7,\"top_p\":0.9}");
    assertThat(values(argv, "--api-backend")).as("genai-bench's openai backend would drop ignore_eos")
        .containsExactly("vllm");
    assertThat(values(argv(build(urlBenchmark("additionalRequestParams: {temperature: \"0\"}\n"))),
        "--api-backend")).containsExactly("openai");
  }

  @Test
  void aUrlEndpointsOpenAiKeyIsAPlaceholderThatPodOverrideReplacesFromASecret() {
    assertThat(benchmarkContainer(build(urlBenchmark(""))).getEnv()).filteredOn(e -> e.getName()
        .equals("OPENAI_API_KEY")).singleElement().satisfies(e -> assertThat(e.getValue()).isEqualTo("none"));
    Job keyed = build(urlBenchmark("""
        podOverride:
          env: [{name: OPENAI_API_KEY, valueFrom: {secretKeyRef: {name: llm-key, key: key}}}]
        """));
    assertThat(benchmarkContainer(keyed).getEnv()).filteredOn(e -> e.getName().equals("OPENAI_API_KEY"))
        .singleElement().satisfies(e -> {
          assertThat(e.getValue()).isNull();
          assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("llm-key");
        });
    assertThat(benchmarkContainer(keyed).getEnv()).as("genai-bench takes MODEL_API_KEY before --api-key")
        .filteredOn(e -> e.getName().equals("MODEL_API_KEY")).singleElement().satisfies(e -> {
          assertThat(e.getValue()).isNull();
          assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("llm-key");
          assertThat(e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("key");
        });
    assertThat(values(argv(keyed), "--api-key")).as("only a placeholder on the command line").containsExactly("none");
  }

  @Test
  void noSecretNorAReferenceToOneIsEverOnTheCommandLine() {
    Job job = build(urlBenchmark("""
        huggingFaceSecretReference: {name: hf}
        podOverride:
          env: [{name: OPENAI_API_KEY, value: sk-live-0123456789}]
        """));
    assertThat(argv(job)).noneMatch(a -> a.contains("$(")).noneMatch(a -> a.contains("sk-live"));
    assertThat(benchmarkContainer(job).getEnv()).filteredOn(e -> e.getName().equals("MODEL_API_KEY"))
        .singleElement().satisfies(e -> assertThat(e.getValue()).isEqualTo("sk-live-0123456789"));
    for (String output : List.of("{storageUri: \"s3://b/p\", key: aws}", "{storageUri: \"az://a/c/p\", key: az}",
        "{storageUri: \"github://o/r\", key: gh}", "{storageUri: \"gs://b/p\", key: gcp}",
        "{storageUri: \"oci://n/t/b/b/o/p\", key: oci}")) {
      Job stored = build(BenchmarkFixtures.benchmark("store", """
          endpoint: {endpoint: {url: "http://llm", apiFormat: openai, modelName: m}}
          task: text-to-text
          maxTimePerIteration: 1
          maxRequestsPerIteration: 1
          outputLocation: %s
          """.formatted(output)));
      assertThat(argv(stored)).as(output).noneMatch(a -> a.contains("$("));
      assertThat(benchmarkContainer(stored).getEnv()).as(output)
          .noneMatch(e -> e.getValue() != null && e.getValue().contains("$("));
    }
  }

  @Test
  void theHuggingFaceTokenComesFromTheSecretNeverFromArguments() {
    Job job = build(urlBenchmark("huggingFaceSecretReference: {name: hf}\n"));
    assertThat(benchmarkContainer(job).getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("HUGGINGFACE_API_KEY");
      assertThat(e.getValue()).isNull();
      assertThat(e.getValueFrom().getSecretKeyRef().getName()).isEqualTo("hf");
      assertThat(e.getValueFrom().getSecretKeyRef().getKey()).isEqualTo("HUGGINGFACE_API_KEY");
    });
  }

  static Stream<Arguments> datasets() {
    return Stream.of(
        Arguments.of("hf://anon8231489123/ShareGPT_Vicuna_unfiltered@main", List.of(), "",
            List.of("--dataset-path", "anon8231489123/ShareGPT_Vicuna_unfiltered")),
        Arguments.of("hf://datasets/lmms-lab/llava-bench-in-the-wild", List.of(), "",
            List.of("--dataset-path", "lmms-lab/llava-bench-in-the-wild")),
        Arguments.of("pvc://prompts/sharegpt.json", List.of("/benchmark-dataset"), "prompts",
            List.of("--dataset-path", "/benchmark-dataset/sharegpt.json")),
        Arguments.of("local:///data/prompts.csv", List.of("/data/prompts.csv"), "",
            List.of("--dataset-path", "/data/prompts.csv")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("datasets")
  void aDatasetIsPassedByHubIdOrMountedPath(String uri, List<String> mountPaths, String claim, List<String> args) {
    Job job = build(urlBenchmark("dataset: {storageUri: \"" + uri + "\", parameters: {prompt_column: text}}\n"));
    List<String> argv = argv(job);
    assertThat(String.join(" ", argv)).contains(String.join(" ", args) + " --dataset-prompt-column text");
    assertThat(benchmarkContainer(job).getVolumeMounts()).extracting(VolumeMount::getMountPath)
        .containsAll(mountPaths);
    List<Volume> volumes = job.getSpec().getTemplate().getSpec().getVolumes();
    if (!claim.isEmpty()) {
      assertThat(volumes).filteredOn(v -> v.getName().equals("dataset")).singleElement().satisfies(v -> {
        assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo(claim);
        assertThat(v.getPersistentVolumeClaim().getReadOnly()).isTrue();
      });
    }
  }

  @Test
  void aStoreDatasetIsFetchedFirstByModelplaneIntoTheDatasetVolume() {
    Job job = build(urlBenchmark("dataset: {storageUri: \"oci://n/tenancy/b/data/o/sharegpt\", key: oci-reader, "
        + "parameters: {region: us-ashburn-1, auth: UserPrincipal, prompt_column: text}}\n"));
    var pod = job.getSpec().getTemplate().getSpec();
    assertThat(pod.getInitContainers()).extracting(c -> c.getName()).containsExactly("dataset", "benchmark");
    var fetch = pod.getInitContainers().getFirst();
    assertThat(fetch.getImage()).isEqualTo(dev.modelplane.operator.ProjectVersion.image());
    assertThat(fetch.getArgs()).containsExactly("fetch", "--storage-uri", "oci://n/tenancy/b/data/o/sharegpt",
        "--dest", "/benchmark-dataset", "--parameter", "auth=UserPrincipal", "--parameter", "region=us-ashburn-1",
        "--secret-dir", "/etc/modelplane/dataset-credentials");
    assertThat(fetch.getVolumeMounts()).extracting(VolumeMount::getMountPath)
        .containsExactly("/benchmark-dataset", "/etc/modelplane/dataset-credentials");
    assertThat(fetch.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(String.join(" ", argv(job))).contains("--dataset-path /benchmark-dataset --dataset-prompt-column text");
    assertThat(benchmarkContainer(job).getVolumeMounts()).filteredOn(m -> m.getName().equals("dataset"))
        .singleElement().satisfies(m -> assertThat(m.getReadOnly()).isTrue());
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("dataset-credentials")).singleElement()
        .satisfies(v -> assertThat(v.getSecret().getSecretName()).isEqualTo("oci-reader"));
    Job anonymous = build(urlBenchmark("dataset: {storageUri: \"gs://public/prompts\"}\n"));
    assertThat(anonymous.getSpec().getTemplate().getSpec().getInitContainers().getFirst().getArgs())
        .doesNotContain("--secret-dir");
  }

  @Test
  void aDatasetOfAnotherSchemeIsRefusedNamingTheOnesThatWork() {
    assertThatThrownBy(() -> build(urlBenchmark("dataset: {storageUri: \"vendor://x/y/z\"}\n")))
        .isInstanceOf(BenchmarkConfigException.class)
        .hasMessage("dataset vendor://x/y/z is not supported: genai-bench reads datasets from the Hugging Face Hub "
            + "(hf://), a claim (pvc://), the node (local://) or a store (s3://, oci://, gs://, az://, github://)");
  }

  @Test
  void podOverrideMergesOverTheDefaults() {
    Job job = build(urlBenchmark("""
        podOverride:
          image: mirror/genai-bench:2
          env: [{name: ENABLE_UI, value: "true"}, {name: EXTRA, value: "1"}]
          envFrom: [{secretRef: {name: more}}]
          volumeMounts: [{name: scratch, mountPath: /scratch}]
          resources: {limits: {memory: 4Gi}}
          tolerations: [{key: dedicated, operator: Equal, value: bench, effect: NoSchedule}]
          nodeSelector: {pool: bench}
          affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms:
            [{matchExpressions: [{key: zone, operator: In, values: [a]}]}]}}}
          volumes: [{name: scratch, emptyDir: {}}]
        """));
    Container bench = benchmarkContainer(job);
    PodSpec pod = job.getSpec().getTemplate().getSpec();
    assertThat(bench.getImage()).isEqualTo("mirror/genai-bench:2");
    assertThat(bench.getEnv()).filteredOn(e -> e.getName().equals("ENABLE_UI")).singleElement()
        .satisfies(e -> assertThat(e.getValue()).isEqualTo("true"));
    assertThat(bench.getEnv()).extracting(EnvVar::getName).contains("EXTRA", "HOME");
    assertThat(bench.getEnvFrom()).singleElement().satisfies(e -> assertThat(e.getSecretRef().getName())
        .isEqualTo("more"));
    assertThat(bench.getVolumeMounts()).extracting(VolumeMount::getMountPath)
        .contains("/scratch", "/benchmark-results");
    assertThat(bench.getResources().getLimits()).containsEntry("memory", new Quantity("4Gi"))
        .containsEntry("cpu", new Quantity("2"));
    assertThat(bench.getResources().getRequests()).containsEntry("memory", new Quantity("2Gi"));
    assertThat(pod.getTolerations()).extracting(t -> t.getKey()).containsExactly("nvidia.com/gpu", "dedicated");
    assertThat(pod.getNodeSelector()).containsEntry("pool", "bench");
    assertThat(pod.getAffinity().getNodeAffinity()).isNotNull();
    assertThat(pod.getVolumes()).extracting(Volume::getName).contains("scratch", "results");
    assertThat(pod.getContainers().get(0).getImage()).as("the results container keeps its image")
        .isEqualTo(ProjectVersion.image());
  }
}
