package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.ome.v1beta1.AcceleratorModelConfig;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.EngineSpec;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import dev.modelplane.api.ome.v1beta1.TensorParallelismConfig;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ComponentMergeTest {
  private static final ServingRuntimeSpec RUNTIME = Serialization.unmarshal("""
      apiVersion: ome.io/v1beta1
      kind: ClusterServingRuntime
      metadata: {name: vllm}
      spec:
        nodeSelector: {pool: gpu, zone: a}
        containers:
          - name: ome-container
            resources:
              requests: {cpu: "4", memory: 16Gi}
              limits: {nvidia.com/gpu: "1"}
        engineConfig:
          minReplicas: 1
          maxReplicas: 4
          annotations: {prometheus.io/scrape: "true"}
          tolerations: [{key: nvidia.com/gpu, operator: Exists}]
          volumes: [{name: dshm, emptyDir: {medium: Memory}}, {name: cache, emptyDir: {}}]
          containers:
            - name: sidecar
              image: proxy:1
          runner:
            name: ome-container
            image: vllm:1
            args: [--port=8080, --max-num-seqs=128]
            env: [{name: A, value: runtime}, {name: B, value: runtime}]
            volumeMounts: [{name: dshm, mountPath: /dev/shm}]
        leaderWorker: null
      """.replace("  leaderWorker: null\n", ""), ClusterServingRuntime.class).getSpec();

  private static EngineSpec engine(String yaml) {
    return Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: s}
        spec:
          engine:
        """ + yaml.indent(4), InferenceService.class).getSpec().engine();
  }

  private static Container main(ComponentMerge.Merged merged) {
    return ModelWiring.mainContainer(merged.pod(), merged.mainContainer());
  }

  @Test
  void aComponentExistsOnlyWhenTheServiceDeclaresIt() {
    assertThat(ComponentMerge.merge(null, RUNTIME.getEngineConfig(), RUNTIME, EngineSpec.class)).isNull();
  }

  @Test
  void theServiceWinsListsMergeByNameAndRunnerArgsAreConcatenated() {
    ComponentMerge.Merged m = ComponentMerge.merge(engine("""
        maxReplicas: 8
        volumes: [{name: cache, hostPath: {path: /cache}}]
        runner:
          args: [--max-num-seqs=256]
          env: [{name: B, value: service}, {name: C, value: service}]
        """), RUNTIME.getEngineConfig(), RUNTIME, EngineSpec.class);
    assertThat(m.spec().getMinReplicas()).isEqualTo(1);
    assertThat(m.spec().getMaxReplicas()).isEqualTo(8);
    assertThat(m.pod().getVolumes()).extracting(v -> v.getName()).containsExactly("dshm", "cache");
    assertThat(m.pod().getVolumes().get(1).getHostPath().getPath()).isEqualTo("/cache");
    assertThat(m.pod().getVolumes().get(1).getEmptyDir()).as("merged objects keep the base's other fields")
        .isNotNull();
    assertThat(m.pod().getContainers()).extracting(Container::getName).containsExactly("sidecar", "ome-container");
    assertThat(m.mainContainer()).isEqualTo("ome-container");
    Container main = main(m);
    assertThat(main.getImage()).isEqualTo("vllm:1");
    assertThat(main.getArgs()).containsExactly("--port=8080", "--max-num-seqs=128", "--max-num-seqs=256");
    assertThat(main.getEnv()).extracting(EnvVar::getName, EnvVar::getValue).containsExactly(
        org.assertj.core.groups.Tuple.tuple("A", "runtime"), org.assertj.core.groups.Tuple.tuple("B", "service"),
        org.assertj.core.groups.Tuple.tuple("C", "service"));
    assertThat(m.pod().getTolerations()).hasSize(1);
  }

  @Test
  void runtimeResourcesAndNodeSelectorFillWhatTheServiceLeftOut() {
    ComponentMerge.Merged defaults = ComponentMerge.merge(engine("nodeSelector: {zone: b}"),
        RUNTIME.getEngineConfig(), RUNTIME, EngineSpec.class);
    assertThat(main(defaults).getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(main(defaults).getResources().getLimits()).containsKey("nvidia.com/gpu");
    assertThat(defaults.pod().getNodeSelector()).containsEntry("pool", "gpu").containsEntry("zone", "b");
    ComponentMerge.Merged own = ComponentMerge.merge(engine("runner: {resources: {limits: {nvidia.com/gpu: '2'}}}"),
        RUNTIME.getEngineConfig(), RUNTIME, EngineSpec.class);
    assertThat(main(own).getResources().getRequests()).as("the service set resources: none are added")
        .isNullOrEmpty();
    assertThat(main(own).getResources().getLimits().get("nvidia.com/gpu").getAmount()).isEqualTo("2");
  }

  @Test
  void withoutARuntimeTemplateTheServicesComponentIsUsedAsIs() {
    ComponentMerge.Merged m = ComponentMerge.merge(engine("runner: {name: server, image: own:1, args: [--a]}"),
        null, null, EngineSpec.class);
    assertThat(m.pod().getContainers()).singleElement().satisfies(c -> {
      assertThat(c.getName()).isEqualTo("server");
      assertThat(c.getArgs()).containsExactly("--a");
    });
  }

  @Test
  void aRunnerWithoutNameMergesIntoTheFirstContainerOrBecomesOmeContainer() {
    ComponentMerge.Merged first = ComponentMerge.merge(engine("""
        containers: [{name: app, image: a:1, args: [--x]}]
        runner: {args: [--y]}
        """), null, null, EngineSpec.class);
    assertThat(first.pod().getContainers()).singleElement().satisfies(c -> assertThat(c.getArgs())
        .containsExactly("--x", "--y"));
    ComponentMerge.Merged only = ComponentMerge.merge(engine("runner: {image: b:1}"), null, null, EngineSpec.class);
    assertThat(only.mainContainer()).isEqualTo("ome-container");
  }

  @Test
  void multiNodeLeaderAndWorkerTakeThePodAndTheirOwnRunners() {
    ComponentMerge.Merged m = ComponentMerge.merge(engine("""
        leader:
          runner: {name: ome-container, image: sglang:1, args: [--node-rank=0]}
        worker:
          size: 2
          runner: {name: ome-container, image: sglang:1, args: [--node-rank=$(LWS_WORKER_INDEX)]}
        """), RUNTIME.getEngineConfig(), RUNTIME, EngineSpec.class);
    assertThat(m.workerSize()).isEqualTo(2);
    assertThat(m.leader().getVolumes()).extracting(v -> v.getName()).contains("dshm");
    assertThat(ModelWiring.mainContainer(m.leader(), "ome-container").getArgs()).containsExactly("--node-rank=0");
    assertThat(ModelWiring.mainContainer(m.worker(), "ome-container").getArgs())
        .containsExactly("--node-rank=$(LWS_WORKER_INDEX)");
    assertThat(m.worker().getTolerations()).hasSize(1);
  }

  @Test
  void strategicMergeReplacesListsWithoutAMergeKey() {
    var json = new io.fabric8.kubernetes.client.utils.KubernetesSerialization();
    var base = json.convertValue(Map.of("tolerations", List.of(Map.of("key", "a")), "ports",
        List.of(Map.of("containerPort", 1, "name", "x"))), com.fasterxml.jackson.databind.JsonNode.class);
    var patch = json.convertValue(Map.of("tolerations", List.of(Map.of("key", "b")), "ports",
        List.of(Map.of("containerPort", 1, "name", "y"), Map.of("containerPort", 2))),
        com.fasterxml.jackson.databind.JsonNode.class);
    var merged = StrategicMerge.merge(base, patch);
    assertThat(merged.get("tolerations")).isEqualTo(json.convertValue(List.of(Map.of("key", "b")),
        com.fasterxml.jackson.databind.JsonNode.class));
    assertThat(merged.get("ports")).isEqualTo(json.convertValue(List.of(Map.of("containerPort", 1, "name", "y"),
        Map.of("containerPort", 2)), com.fasterxml.jackson.databind.JsonNode.class));
  }

  @Test
  void acceleratorSettingsUpsertEnvReplaceFlagsByKeyAndRewriteParallelism() {
    Container c = new ContainerBuilder().withName("ome-container").withArgs("--port=8080", "--max-num-seqs", "128",
        "--enforce-eager", "--tensor-parallel-size=1").addNewEnv().withName("X").withValue("old").endEnv().build();
    AcceleratorOverrides.apply(c, new AcceleratorModelConfig(null, new TensorParallelismConfig(4L, 2L, null),
        List.of("--max-num-seqs=512", "--enforce-eager", "--kv-cache-dtype fp8"), Map.of("X", "new", "Y", "y")));
    assertThat(c.getArgs()).containsExactly("--port=8080", "--max-num-seqs=512", "--enforce-eager",
        "--tensor-parallel-size=4", "--kv-cache-dtype", "fp8");
    assertThat(c.getEnv()).extracting(EnvVar::getName, EnvVar::getValue).contains(
        org.assertj.core.groups.Tuple.tuple("X", "new"), org.assertj.core.groups.Tuple.tuple("Y", "y"));
  }

  @Test
  void parallelismIsRewrittenInTheCommandWhenTheArgsDoNotHaveItAndInShellLines() {
    Container command = new ContainerBuilder().withCommand("python3", "-m", "sglang.launch_server", "--tp-size", "1")
        .build();
    AcceleratorOverrides.apply(command, new AcceleratorModelConfig(null, new TensorParallelismConfig(8L, null,
        null), null, null));
    assertThat(command.getCommand()).containsExactly("python3", "-m", "sglang.launch_server", "--tp-size", "8");
    Container shell = new ContainerBuilder().withCommand("sh", "-c").withArgs("vllm serve /m \\\n  --tp 1 \\\n"
        + "  --max-num-seqs 64").build();
    AcceleratorOverrides.apply(shell, new AcceleratorModelConfig(null, new TensorParallelismConfig(2L, null, null),
        List.of("--max-num-seqs 256"), null));
    assertThat(shell.getArgs()).containsExactly("vllm serve /m \\\n  --tp 2 \\\n  --max-num-seqs 256");
  }

  @Test
  void placeholdersResolveAgainstTheServicesMetadataAndUnknownOnesAreRefused() {
    PodSpec pod = new PodSpecBuilder().addNewContainer().withName("c").withArgs("--served-model-name={{.Name}}",
        "--ns={{ .Namespace }}", "--team={{ .Labels.team }}", "--tier={{ index .Annotations \"tier\" }}")
        .endContainer().build();
    var meta = new ObjectMetaBuilder().withName("chat").withNamespace("llm").withLabels(Map.of("team", "a"))
        .withAnnotations(Map.of("tier", "gold")).build();
    assertThat(PodTemplating.resolve(pod, meta).getContainers().getFirst().getArgs()).containsExactly(
        "--served-model-name=chat", "--ns=llm", "--team=a", "--tier=gold");
    PodSpec unknown = new PodSpecBuilder().addNewContainer().withArgs("{{ .Spec }}").endContainer().build();
    assertThatThrownBy(() -> PodTemplating.resolve(unknown, meta)).hasMessage("the runtime's placeholder "
        + "{{ .Spec }} is not one of {{.Name}}, {{.Namespace}}, {{.Labels.key}}, {{.Annotations.key}} or "
        + "{{index .Labels \"key\"}}");
    PodSpec missing = new PodSpecBuilder().addNewContainer().withArgs("{{.Labels.owner}}").endContainer().build();
    assertThatThrownBy(() -> PodTemplating.resolve(missing, meta)).hasMessage("the runtime's placeholder "
        + "{{ .Labels.owner }} needs the label owner, which the InferenceService does not have");
  }
}
