package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.common.WorkloadPolicy;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OmePolicyTest {
  private static final ClusterBaseModel MODEL = Serialization.unmarshal("""
      apiVersion: ome.io/v1beta1
      kind: ClusterBaseModel
      metadata: {name: llama}
      spec:
        modelFormat: {name: safetensors, version: "1.0.0"}
        modelArchitecture: LlamaForCausalLM
        storage: {storageUri: "hf://meta/llama", path: /raid/llama}
      """, ClusterBaseModel.class);
  private static final String RUNTIME_SPEC = """
      spec:
        supportedModelFormats:
          - {name: llama, modelFormat: {name: safetensors, version: "1.0.0"}, modelArchitecture: LlamaForCausalLM,
             autoSelect: true}
        engineConfig:
          %s
          runner:
            name: ome-container
            image: vllm
            args: [--model=$(MODEL_PATH), --port=8080]
            ports: [{containerPort: 8080}]
      """;

  /** The model as the resolution decided it: its node directory is /raid/llama. */
  private static final ServedModel DECIDED = new ServedModel(BaseModelKey.of(MODEL), Map.of(), MODEL.getSpec(), null,
      "/raid/llama", null);

  private static List<String> fields(String isvcYaml, String runtimePod, boolean namespaced) {
    OmeServingPlanner.Result r = plan(isvcYaml, runtimePod, namespaced, DECIDED);
    assertThat(r).as("%s", r).isInstanceOf(OmeServingPlanner.Planned.class);
    return OmePolicy.violations(((OmeServingPlanner.Planned) r).plan()).stream()
        .map(WorkloadPolicy.Violation::field).toList();
  }

  private static OmeServingPlanner.Result plan(String isvcYaml, String runtimePod, boolean namespaced,
      ServedModel model) {
    return planWith(isvcYaml, RUNTIME_SPEC.formatted(runtimePod), namespaced, model);
  }

  /** The violations with a ClusterServingRuntime whose whole {@code spec:} block is {@code runtime}. */
  private static List<String> fieldsWithRuntime(String isvcYaml, String runtime) {
    OmeServingPlanner.Result r = planWith(isvcYaml, runtime, false, DECIDED);
    assertThat(r).as("%s", r).isInstanceOf(OmeServingPlanner.Planned.class);
    return OmePolicy.violations(((OmeServingPlanner.Planned) r).plan()).stream()
        .map(WorkloadPolicy.Violation::field).toList();
  }

  private static OmeServingPlanner.Result planWith(String isvcYaml, String runtime, boolean namespaced,
      ServedModel model) {
    InferenceService isvc = Serialization.unmarshal("apiVersion: ome.io/v1beta1\nkind: InferenceService\n"
        + isvcYaml, InferenceService.class);
    List<ServingRuntime> own = namespaced ? List.of(Serialization.unmarshal("apiVersion: ome.io/v1beta1\n"
        + "kind: ServingRuntime\nmetadata: {name: mine, namespace: llm}\n" + runtime, ServingRuntime.class))
        : List.of();
    List<ClusterServingRuntime> cluster = namespaced ? List.of() : List.of(Serialization.unmarshal(
        "apiVersion: ome.io/v1beta1\nkind: ClusterServingRuntime\nmetadata: {name: vllm}\n" + runtime,
        ClusterServingRuntime.class));
    return OmeServingPlanner.plan(isvc, PredictorConversion.effective(isvc.getSpec()), model, own, cluster,
        OperatorSettings.defaults());
  }

  private static List<String> hostPaths(OmeServingPlanner.Result r) {
    return ((OmeServingPlanner.Planned) r).plan().objects().stream()
        .filter(o -> o instanceof io.fabric8.kubernetes.api.model.apps.Deployment)
        .flatMap(o -> ((io.fabric8.kubernetes.api.model.apps.Deployment) o).getSpec().getTemplate().getSpec()
            .getVolumes().stream())
        .filter(v -> v.getHostPath() != null).map(v -> v.getHostPath().getPath()).toList();
  }

  private static List<String> fields(String isvcYaml) {
    return fields(isvcYaml, "", false);
  }

  @Test
  void aServiceOnTheModelsNodeDirectoryPasses() {
    // The model wiring's hostPath (/raid/llama, mounted read-only) is the operator's own.
    assertThat(fields("""
        metadata: {name: chat, namespace: llm}
        spec: {model: {name: llama}, engine: {minReplicas: 1}, router: {}}
        """)).isEmpty();
  }

  @Test
  void hostNamespacesPortsAndVolumesOfTheServiceAreRefused() {
    assertThat(fields("""
        metadata: {name: chat, namespace: llm}
        spec:
          model: {name: llama}
          engine:
            hostNetwork: true
            hostPID: true
            volumes: [{name: root, hostPath: {path: /}}]
            runner:
              securityContext: {privileged: true}
              ports: [{containerPort: 8080, hostPort: 80}]
        """)).contains("spec.engine.hostNetwork", "spec.engine.hostPID", "spec.engine.volumes[root].hostPath",
        "spec.engine.containers[ome-container].securityContext.privileged",
        "spec.engine.containers[ome-container].ports[8080].hostPort");
  }

  @Test
  void aWritableMountOfTheModelDirectoryIsRefused() {
    assertThat(fields("""
        metadata: {name: chat, namespace: llm}
        spec:
          model: {name: llama}
          engine:
            runner: {volumeMounts: [{name: llama, mountPath: /scratch}]}
        """)).containsExactly("spec.engine.containers[ome-container].volumeMounts[/scratch]");
  }

  @Test
  void aNamespacedServingRuntimesTemplateIsCheckedToo() {
    assertThat(fields("""
        metadata: {name: chat, namespace: llm}
        spec: {model: {name: llama}, engine: {}}
        """, "hostIPC: true", true)).containsExactly("spec.engine.hostIPC");
  }

  @Test
  void whatAClusterServingRuntimeSetsItselfIsTheAdministratorsAndAllowed() {
    String runtime = "hostNetwork: true\n    volumes: [{name: cache, hostPath: {path: /var/cache/models}}]";
    String isvc = """
        metadata: {name: chat, namespace: llm}
        spec: {model: {name: llama}, engine: {}}
        """;
    assertThat(fields(isvc, runtime, false)).isEmpty();
    // The same template in a ServingRuntime of the tenant's namespace is the tenant's.
    assertThat(fields(isvc, runtime, true)).containsExactly("spec.engine.hostNetwork",
        "spec.engine.volumes[cache].hostPath");
    // The service's own additions, or the runtime's volume pointed elsewhere, are the tenant's.
    assertThat(fields("""
        metadata: {name: chat, namespace: llm}
        spec:
          model: {name: llama}
          engine:
            hostPID: true
            volumes: [{name: cache, hostPath: {path: /}}]
        """, runtime, false)).containsExactly("spec.engine.hostPID", "spec.engine.volumes[cache].hostPath");
  }

  @Test
  void theServiceTypeAndLoadBalancerIpAnnotationsAreRefused() {
    assertThat(fields("""
        metadata:
          name: chat
          namespace: llm
          annotations: {ome.io/service-type: LoadBalancer, ome.io/load-balancer-ip: 203.0.113.9}
        spec: {model: {name: llama}, engine: {}}
        """)).containsExactly("metadata.annotations[ome.io/service-type]",
        "metadata.annotations[ome.io/load-balancer-ip]");
  }

  @Test
  void onlyTheDecidedDirectoryIsMountedNeverTheSpecsPath() {
    // spec.storage.path says /raid/llama; the resolution decided another directory: that one is mounted.
    ServedModel decided = new ServedModel(BaseModelKey.of(MODEL), Map.of(), MODEL.getSpec(), null,
        "/raid/models/_cluster/llama", null);
    OmeServingPlanner.Result r = plan("""
        metadata: {name: chat, namespace: llm}
        spec: {model: {name: llama}, engine: {}}
        """, "", false, decided);
    assertThat(hostPaths(r)).containsOnly("/raid/models/_cluster/llama");
  }

  @Test
  void aModelWithoutADecidedNodeDirectoryGetsNoHostPathAndIsBlocked() {
    // A model for which the resolution decided no directory: the spec's path (here the API server's keys) is never
    // mounted, whatever the store.
    for (String uri : List.of("oci://n/ns/b/bucket/o/llama", "gs://bucket/llama", "github://org/repo@v1",
        "az://acct/c/llama")) {
      ClusterBaseModel oci = Serialization.unmarshal(Serialization.asYaml(MODEL).replace("hf://meta/llama", uri)
          .replace("/raid/llama", "/etc/kubernetes/pki"), ClusterBaseModel.class);
      ServedModel notOnNode = new ServedModel(BaseModelKey.of(oci), Map.of(), oci.getSpec(), null, null, null);
      OmeServingPlanner.Result r = plan("""
          metadata: {name: chat, namespace: llm}
          spec: {model: {name: llama}, engine: {}}
          """, "", false, notOnNode);
      assertThat(r).as(uri).isInstanceOf(OmeServingPlanner.Blocked.class);
      assertThat(((OmeServingPlanner.Blocked) r).blocked().message()).as(uri)
          .contains("spec.storage.storageUri: " + uri.substring(0, uri.indexOf(':')) + ":// models have no "
              + "directory on the node the operator may mount")
          .doesNotContain("/etc/kubernetes/pki");
    }
  }

  @Test
  void aClusterServingRuntimesTopLevelPodFieldsReachTheEngineAndVouchOnlyForIt() {
    // Top-level pod fields are merged into the engine and decoder, not the router: the same field a tenant sets on
    // spec.router is not made the administrators' by them.
    String runtime = RUNTIME_SPEC.formatted("").replace("spec:\n", """
        spec:
          hostNetwork: true
          hostIPC: true
          volumes: [{name: etc, hostPath: {path: /etc}}]
          containers: [{name: router, securityContext: {privileged: true}}]
        """);
    assertThat(fieldsWithRuntime("""
        metadata: {name: chat, namespace: llm}
        spec:
          model: {name: llama}
          engine: {}
          router:
            hostNetwork: true
            hostIPC: true
            volumes: [{name: etc, hostPath: {path: /etc}}]
            runner: {name: router, image: r, securityContext: {privileged: true}}
        """, runtime)).contains("spec.router.hostNetwork", "spec.router.hostIPC", "spec.router.volumes[etc].hostPath",
        "spec.router.containers[router].securityContext.privileged")
        .doesNotContain("spec.engine.hostNetwork", "spec.engine.hostIPC", "spec.engine.volumes[etc].hostPath");
  }

  @Test
  void aNamespacedRuntimesTopLevelPodFieldsAreCheckedOnTheEngine() {
    String spec = RUNTIME_SPEC.formatted("").replace("spec:\n", "spec:\n  hostIPC: true\n");
    OmeServingPlanner.Result r = planWith("""
        metadata: {name: chat, namespace: llm}
        spec: {model: {name: llama}, engine: {}}
        """, spec, true, DECIDED);
    assertThat(OmePolicy.violations(((OmeServingPlanner.Planned) r).plan())).extracting(
        WorkloadPolicy.Violation::field).contains("spec.engine.hostIPC");
  }

  @Test
  void aClusterServingRuntimesHostPathIsMountedOnlyAsTheRuntimeMountsIt() {
    String runtime = "volumes: [{name: cache, hostPath: {path: /var/cache/models}}]";
    String own = RUNTIME_SPEC.formatted(runtime).replace("ports: [{containerPort: 8080}]",
        "ports: [{containerPort: 8080}]\n      volumeMounts: [{name: cache, mountPath: /cache}]");
    String isvc = """
        metadata: {name: chat, namespace: llm}
        spec:
          model: {name: llama}
          engine:
            %s
        """;
    // The runtime's own writable mount in its own container is the administrators'.
    assertThat(fieldsWithRuntime(isvc.formatted("{}"), own)).isEmpty();
    // A writable mount the tenant adds, to the runner or a container of its own, is refused; a read-only one passes.
    assertThat(fieldsWithRuntime(isvc.formatted("""
        runner: {volumeMounts: [{name: cache, mountPath: /w}]}
            containers: [{name: mine, image: busybox, volumeMounts: [{name: cache, mountPath: /x}]}]"""), own))
        .containsExactlyInAnyOrder("spec.engine.containers[ome-container].volumeMounts[/w]",
            "spec.engine.containers[mine].volumeMounts[/x]");
    assertThat(fieldsWithRuntime(isvc.formatted("""
        containers: [{name: mine, image: busybox, volumeMounts: [{name: cache, mountPath: /x, readOnly: true}]}]"""),
        own)).isEmpty();
  }
}
