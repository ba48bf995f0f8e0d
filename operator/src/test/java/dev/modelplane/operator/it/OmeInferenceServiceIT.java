package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.ome.v1beta1.BaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.api.ome.v1beta1.InferenceServiceSpec;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.Edits;
import dev.modelplane.controlplane.FakeNode;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * OME InferenceServices on a real cluster (apiserver, controller-manager, scheduler, kwok GPU nodes): the runtime is
 * chosen from the installed ClusterServingRuntimes, every declared component gets its Deployment, Service,
 * autoscaler and disruption budget, pods run only on the node the model agent marked Ready, and the status says
 * Ready with a URL — or says which runtimes were excluded and why.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER, ControlPlane.Component.SCHEDULER,
    ControlPlane.Component.KWOK})
class OmeInferenceServiceIT {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static OperatorHarness harness;
  private final List<HasMetadata> clusterScoped = new ArrayList<>();
  private KubernetesClient client;

  @BeforeAll
  static void startOperator(ControlPlane controlPlane) {
    harness = OperatorHarness.start(controlPlane);
  }

  @AfterAll
  static void stopOperator() {
    if (harness != null) {
      harness.close();
    }
  }

  @AfterEach
  void removeClusterScoped() {
    clusterScoped.forEach(o -> client.resource(o).delete());
  }

  private static String suffix(KubeTest test) {
    return test.namespace().substring(test.namespace().lastIndexOf('-') + 1);
  }

  private <T extends HasMetadata> T createClusterScoped(T object) {
    T created = client.resource(object).create();
    clusterScoped.add(created);
    return created;
  }

  /** A ClusterBaseModel of a format only this test uses, so runtimes of other tests never match it. */
  private ClusterBaseModel model(String name, String format) {
    return createClusterScoped(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: %s}
        spec:
          vendor: meta
          modelFormat: {name: %s, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: LlamaForCausalLM
          modelParameterSize: 8B
          storage: {storageUri: "hf://meta-llama/Llama-3.1-8B-Instruct", path: /raid/models/%s}
        """.formatted(name, format, name), ClusterBaseModel.class));
  }

  private ClusterServingRuntime runtime(String name, String format, String extra) {
    return createClusterScoped(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: ClusterServingRuntime
        metadata: {name: %s}
        spec:
          supportedModelFormats:
            - name: %s
              modelFormat: {name: %s, version: "1.0.0"}
              modelFramework: {name: transformers, version: "4.43.0"}
              modelArchitecture: LlamaForCausalLM
              autoSelect: true
              priority: 1
          modelSizeRange: {min: 1B, max: 10B}
        %s
        """.formatted(name, format, format, extra.indent(2)), ClusterServingRuntime.class));
  }

  private static final String ENGINE = """
      engineConfig:
        runner:
          name: ome-container
          image: docker.io/vllm/vllm-openai:v0.25.1
          args: [--model=$(MODEL_PATH), --port=8080]
          ports: [{containerPort: 8080, name: http1}]
          resources:
            limits: {nvidia.com/gpu: "1"}
      """;

  private InferenceService isvc(String ns, String yaml) {
    return client.resource(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata:
          namespace: %s
        """.formatted(ns) + yaml, InferenceService.class)).create();
  }

  private InferenceService get(String ns, String name) {
    return client.resources(InferenceService.class).inNamespace(ns).withName(name).get();
  }

  private static Condition condition(InferenceService isvc, String type) {
    assertThat(isvc.getStatus()).as("status").isNotNull();
    assertThat(isvc.getStatus().conditions()).as("conditions").isNotNull();
    return isvc.getStatus().conditions().stream().filter(c -> c.getType().equals(type)).findFirst()
        .orElseThrow(() -> new AssertionError("no condition " + type + " in " + isvc.getStatus().conditions()));
  }

  @Test
  void anAutoSelectedRuntimeServesTheModelOnTheNodeWhereItIsReady(KubeTest test) throws IOException {
    client = test.client();
    String s = suffix(test);
    String modelName = "llama-" + s;
    model(modelName, "safetensors-" + s);
    runtime("vllm-" + s, "safetensors-" + s, ENGINE);
    test.addNodes(FakeNode.nvidia("without-" + s, 2));
    test.addNodes(FakeNode.nvidia("with-" + s, 2).withLabel("models.ome.io/clusterbasemodel." + modelName, "Ready"));
    String ns = test.namespace();
    isvc(ns, """
          name: chat
        spec:
          model: {name: %s}
          engine: {minReplicas: 1, maxReplicas: 2}
        """.formatted(modelName));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(ns, "chat");
      assertThat(condition(isvc, "Ready").getStatus()).isEqualTo("True");
      assertThat(condition(isvc, "RuntimeSelected").getMessage()).contains("vllm-" + s);
      assertThat(isvc.getStatus().url()).isEqualTo("http://chat." + ns + ".svc.cluster.local:8080");
    });
    Deployment engine = client.apps().deployments().withName("chat-engine").get();
    Container main = engine.getSpec().getTemplate().getSpec().getContainers().getFirst();
    assertThat(main.getImage()).isEqualTo("docker.io/vllm/vllm-openai:v0.25.1");
    assertThat(main.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("MODEL_PATH");
      assertThat(e.getValue()).isEqualTo("/raid/models/" + modelName);
    });
    assertThat(client.services().withName("chat-engine").get()).isNotNull();
    assertThat(client.services().withName("chat").get().getSpec().getSelector())
        .containsEntry("ome.io/inferenceservice", "chat").containsEntry("component", "engine");
    assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("chat-engine").get().getSpec()
        .getMaxReplicas()).isEqualTo(2);
    assertThat(client.policy().v1().podDisruptionBudget().withName("chat-engine").get()).isNotNull();
    List<Pod> pods = client.pods().withLabel("component", "engine").list().getItems();
    assertThat(pods).isNotEmpty().allSatisfy(p -> assertThat(p.getSpec().getNodeName()).isEqualTo("with-" + s));
  }

  @Test
  void aPredictorFormServiceKeepsItsModelContainerRuntimePodFieldsAndKedaChoice(KubeTest test) throws IOException {
    client = test.client();
    String s = suffix(test);
    String modelName = "legacy-" + s;
    model(modelName, "legacy-" + s);
    runtime("legacy-rt-" + s, "legacy-" + s, ENGINE + """
        protocolVersions: [openAI]
        tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
        imagePullSecrets: [{name: registry-creds}]
        volumes: [{name: dshm, emptyDir: {medium: Memory}}]
        """);
    test.installUpstreamCrds(UpstreamCrds.KEDA);
    String ns = test.namespace();
    isvc(ns, """
          name: legacy
        spec:
          kedaConfig: {enableKeda: true}
          predictor:
            maxReplicas: 2
            model:
              baseModel: %s
              storageUri: oci://n/tenancy/b/models/o/llama
              protocolVersion: openAI
              image: registry.example/vllm:custom
              env: [{name: FROM_MODEL, value: "1"}]
        """.formatted(modelName));
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(client.apps().deployments().withName("legacy-engine")
        .get()).isNotNull());
    var pod = client.apps().deployments().withName("legacy-engine").get().getSpec().getTemplate().getSpec();
    Container main = pod.getContainers().stream().filter(c -> c.getName().equals("ome-container")).findFirst()
        .orElseThrow();
    assertThat(main.getImage()).as("the predictor model's image wins over the runtime's")
        .isEqualTo("registry.example/vllm:custom");
    assertThat(main.getEnv()).extracting(e -> e.getName() + "=" + e.getValue()).contains("FROM_MODEL=1",
        "STORAGE_URI=oci://n/tenancy/b/models/o/llama", "PROTOCOL_VERSION=openAI");
    assertThat(pod.getTolerations()).extracting(t -> t.getKey()).contains("nvidia.com/gpu");
    assertThat(pod.getImagePullSecrets()).extracting(r -> r.getName()).containsExactly("registry-creds");
    assertThat(pod.getVolumes()).extracting(v -> v.getName()).contains("dshm");
    var scaledObjects = client.genericKubernetesResources("keda.sh/v1alpha1", "ScaledObject");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(scaledObjects.withName("scaledobject-legacy-engine")
        .get()).isNotNull());
    assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("legacy-engine").get()).isNull();
  }

  @Test
  void whenNoRuntimeFitsTheStatusListsEveryExcludedRuntimeWithItsReason(KubeTest test) {
    client = test.client();
    String s = suffix(test);
    String modelName = "big-" + s;
    createClusterScoped(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: ClusterBaseModel
        metadata: {name: %s}
        spec:
          modelFormat: {name: nofit-%s, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: LlamaForCausalLM
          modelParameterSize: 70B
          storage: {storageUri: "hf://meta-llama/Llama-3.3-70B-Instruct", path: /raid/models/big}
        """.formatted(modelName, s), ClusterBaseModel.class));
    runtime("small-" + s, "nofit-" + s, ENGINE);
    String ns = test.namespace();
    isvc(ns, """
          name: big
        spec:
          model: {name: %s}
          engine: {}
        """.formatted(modelName));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(ns, "big");
      Condition selected = condition(isvc, "RuntimeSelected");
      assertThat(selected.getStatus()).isEqualTo("False");
      assertThat(selected.getReason()).isEqualTo("NoSupportingRuntime");
      assertThat(selected.getMessage()).contains("small-" + s).contains("70B").contains("outside");
      assertThat(condition(isvc, "Ready").getStatus()).isEqualTo("False");
    });
    assertThat(client.apps().deployments().list().getItems()).isEmpty();
  }

  @Test
  void aBaseModelPointingIntoAnotherNamespacesDirectoryIsNotMounted(KubeTest test) {
    client = test.client();
    String s = suffix(test);
    String ns = test.namespace();
    runtime("steal-rt-" + s, "steal-" + s, ENGINE);
    client.resource(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: stolen, namespace: %s}
        spec:
          modelFormat: {name: steal-%s, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: LlamaForCausalLM
          modelParameterSize: 8B
          storage: {storageUri: "local:///raid/models/victim-team/llama"}
        """.formatted(ns, s), BaseModel.class)).create();
    isvc(ns, """
          name: stolen
        spec:
          model: {name: stolen}
          engine: {}
        """);
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Condition resolved = condition(get(ns, "stolen"), "ModelResolved");
      assertThat(resolved.getStatus()).isEqualTo("False");
      assertThat(resolved.getReason()).isEqualTo("PolicyRefused");
      assertThat(resolved.getMessage()).startsWith("spec.model.name: basemodel/" + ns + "/stolen may not use its "
          + "node directory: spec.storage.storageUri: '/raid/models/victim-team/llama' is outside the directories "
          + "BaseModels of namespace " + ns + " may use (/raid/models/" + ns + "/…)");
    });
    assertThat(client.apps().deployments().withName("stolen-engine").get()).isNull();
  }

  @Test
  void prefillDecodeGetsEngineDecoderAndRouterAndRemovingTheRouterDeletesItsObjects(KubeTest test) {
    client = test.client();
    String s = suffix(test);
    String modelName = "pd-" + s;
    model(modelName, "pd-" + s);
    runtime("pd-rt-" + s, "pd-" + s, ENGINE + ENGINE.replace("engineConfig", "decoderConfig"));
    String ns = test.namespace();
    isvc(ns, """
          name: split
        spec:
          model: {name: %s}
          engine: {}
          decoder: {}
          router: {}
        """.formatted(modelName));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.apps().deployments().withName("split-engine").get()).isNotNull();
      assertThat(client.apps().deployments().withName("split-decoder").get()).isNotNull();
      assertThat(client.apps().deployments().withName("split-router").get()).isNotNull();
      assertThat(client.services().withName("split").get()).isNotNull();
      assertThat(client.rbac().roles().withName("split-router").get()).isNotNull();
    });
    Deployment router = client.apps().deployments().withName("split-router").get();
    assertThat(router.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
        .contains("router", "--pool=split").anySatisfy(a -> assertThat(a).startsWith("--config-text="));
    assertThat(client.services().withName("split").get().getSpec().getSelector())
        .containsEntry("component", "router");
    assertThat(client.genericKubernetesResources("inference.networking.k8s.io/v1", "InferencePool")
        .withName("split").get()).isNotNull();
    assertThat(client.rbac().roles().withName("split-router").get()).isNotNull();

    Edits.onLatest(client.resources(InferenceService.class).inNamespace(ns).withName("split"), i -> {
      i.setSpec(new InferenceServiceSpec(null, i.getSpec().engine(), i.getSpec().decoder(), i.getSpec().model(),
          i.getSpec().runtime(), null, null, null));
      return i;
    });
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.apps().deployments().withName("split-router").get()).isNull();
      assertThat(client.services().withName("split").get().getSpec().getSelector())
          .containsEntry("component", "engine");
    });
  }

  @Test
  void multiNodeBecomesALeaderWorkerSetWhenItsCrdIsInstalledAndAConditionWhenNot(KubeTest test) throws IOException {
    client = test.client();
    String s = suffix(test);
    String modelName = "mn-" + s;
    model(modelName, "mn-" + s);
    runtime("mn-rt-" + s, "mn-" + s, ENGINE + ENGINE.replace("engineConfig", "decoderConfig"));
    String ns = test.namespace();
    isvc(ns, """
          name: absent
        spec:
          model: {name: %s}
          engine: {worker: {size: 1}}
        """.formatted(modelName));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Condition engine = condition(get(ns, "absent"), "EngineReady");
      assertThat(engine.getStatus()).isEqualTo("False");
      assertThat(engine.getReason()).isEqualTo("CRDNotInstalled");
      assertThat(engine.getMessage()).contains("leaderworkersets.leaderworkerset.x-k8s.io");
    });
    test.installUpstreamCrds(UpstreamCrds.LEADER_WORKER_SET, UpstreamCrds.KEDA);
    isvc(ns, """
          name: big
          annotations: {ome.io/autoscalerClass: keda}
        spec:
          model: {name: %s}
          engine: {minReplicas: 2, worker: {size: 3}}
          decoder: {}
        """.formatted(modelName));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      var lws = client.genericKubernetesResources("leaderworkerset.x-k8s.io/v1", "LeaderWorkerSet")
          .withName("lws-big-engine").get();
      assertThat(lws).isNotNull();
      assertThat(lws.getAdditionalProperties().get("spec").toString()).contains("size=4").contains("replicas=2");
      var service = client.services().withName("big-engine").get();
      assertThat(service).as("the engine's Service (may come after the LeaderWorkerSet)").isNotNull();
      assertThat(service.getSpec().getSelector()).containsEntry("leaderworkerset.sigs.k8s.io/worker-index", "0");
      assertThat(client.genericKubernetesResources("keda.sh/v1alpha1", "ScaledObject")
          .withName("scaledobject-big-decoder").get()).as("the raw decoder scales with KEDA").isNotNull();
    });
  }

  @Test
  void aFineTunedWeightIsLoadedByTheRuntimesFlagsAndDeletingTheServiceRemovesItsObjects(KubeTest test) {
    client = test.client();
    String s = suffix(test);
    String modelName = "ft-" + s;
    model(modelName, "ft-" + s);
    runtime("ft-rt-" + s, "ft-" + s, ENGINE);
    createClusterScoped(Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: FineTunedWeight
        metadata: {name: support-%s}
        spec:
          baseModelRef: {name: %s}
          modelType: LoRA
          hyperParameters: {strategy: lora}
          storage: {storageUri: "hf://org/support-lora", path: /raid/models/adapters/support-%s}
        """.formatted(s, modelName, s), FineTunedWeight.class));
    String ns = test.namespace();
    isvc(ns, """
          name: tuned
        spec:
          model: {name: %s, fineTunedWeights: [support-%s]}
          engine: {}
        """.formatted(modelName, s));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      Deployment d = client.apps().deployments().withName("tuned-engine").get();
      assertThat(d).isNotNull();
      assertThat(d.getSpec().getTemplate().getSpec().getContainers().getFirst().getArgs())
          .containsSubsequence("--enable-lora", "--lora-modules", "support-" + s + "=/opt/ml/adapters/support-" + s);
      assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("fine-tuned-serving", "true");
    });
    client.resources(InferenceService.class).inNamespace(ns).withName("tuned").delete();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      assertThat(client.apps().deployments().withName("tuned-engine").get()).isNull();
      assertThat(client.services().withName("tuned").get()).isNull();
      assertThat(client.autoscaling().v2().horizontalPodAutoscalers().withName("tuned-engine").get()).isNull();
    });
  }

  @Test
  void aServerlessEngineBecomesAKnativeServiceAndACanaryKeepsTheRolledOutRevision(KubeTest test)
      throws IOException {
    client = test.client();
    String s = suffix(test);
    String modelName = "sl-" + s;
    model(modelName, "sl-" + s);
    runtime("sl-rt-" + s, "sl-" + s, ENGINE);
    test.installUpstreamCrds(UpstreamCrds.KNATIVE_SERVING);
    String ns = test.namespace();
    isvc(ns, """
          name: burst
        spec:
          model: {name: %s}
          engine: {minReplicas: 0, maxReplicas: 3, scaleMetric: concurrency, scaleTarget: 4}
        """.formatted(modelName));
    var ksvcs = client.genericKubernetesResources("serving.knative.dev/v1", "Service");
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(ksvcs.withName("burst-engine").get()).isNotNull());
    // What Knative's controller would report once the first revision serves all traffic.
    var live = ksvcs.withName("burst-engine").get();
    live.getAdditionalProperties().put("status", java.util.Map.of(
        "latestCreatedRevisionName", "burst-engine-00001", "latestReadyRevisionName", "burst-engine-00001",
        "traffic", List.of(java.util.Map.of("revisionName", "burst-engine-00001", "percent", 100)),
        "conditions", List.of(java.util.Map.of("type", "Ready", "status", "True"))));
    ksvcs.resource(live).updateStatus();
    await().atMost(TIMEOUT).untilAsserted(() -> {
      InferenceService isvc = get(ns, "burst");
      assertThat(condition(isvc, "EngineReady").getStatus()).isEqualTo("True");
      assertThat(isvc.getStatus().components().get("engine").latestRolledoutRevision())
          .isEqualTo("burst-engine-00001");
    });
    Edits.onLatest(client.resources(InferenceService.class).inNamespace(ns).withName("burst"), i -> {
      i.getSpec().engine().setCanaryTrafficPercent(20L);
      return i;
    });
    await().atMost(TIMEOUT).untilAsserted(() -> assertThat(ksvcs.withName("burst-engine").get()
        .getAdditionalProperties().get("spec").toString())
        .contains("percent=20").contains("revisionName=burst-engine-00001").contains("tag=prev")
        .contains("percent=80"));
    // Knative rolls the canary out, then sends it all traffic: the status follows each step.
    knativeStatus(ksvcs.withName("burst-engine"), "burst-engine-00002", List.of(
        java.util.Map.of("tag", "prev", "revisionName", "burst-engine-00001", "percent", 80,
            "latestRevision", false, "url", "http://prev-burst-engine." + ns + ".example.com"),
        java.util.Map.of("revisionName", "burst-engine-00002", "percent", 20, "latestRevision", true)));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      var engine = get(ns, "burst").getStatus().components().get("engine");
      assertThat(engine.traffic()).extracting(t -> t.revisionName() + "=" + t.percent() + "/" + t.tag())
          .containsExactly("burst-engine-00001=80/prev", "burst-engine-00002=20/null");
      assertThat(engine.latestRolledoutRevision()).isEqualTo("burst-engine-00001");
      assertThat(engine.previousRolledoutRevision()).isNull();
      assertThat(engine.url()).isEqualTo("http://burst-engine." + ns + ".example.com");
      assertThat(engine.restURL()).isEqualTo(engine.url());
      assertThat(engine.address().url()).isEqualTo("http://burst-engine." + ns + ".svc.cluster.local");
    });
    knativeStatus(ksvcs.withName("burst-engine"), "burst-engine-00002", List.of(
        java.util.Map.of("revisionName", "burst-engine-00002", "percent", 100, "latestRevision", true)));
    await().atMost(TIMEOUT).untilAsserted(() -> {
      var engine = get(ns, "burst").getStatus().components().get("engine");
      assertThat(engine.latestRolledoutRevision()).isEqualTo("burst-engine-00002");
      assertThat(engine.previousRolledoutRevision()).isEqualTo("burst-engine-00001");
      assertThat(engine.latestReadyRevision()).isEqualTo("burst-engine-00002");
    });
  }

  /** Writes what Knative's controller would report: a Ready Service with this traffic. */
  private static void knativeStatus(
      io.fabric8.kubernetes.client.dsl.Resource<io.fabric8.kubernetes.api.model.GenericKubernetesResource> ksvc,
      String latest, List<java.util.Map<String, Object>> traffic) {
    for (int attempt = 1; ; attempt++) {
      var live = ksvc.get();
      String ns = live.getMetadata().getNamespace();
      live.getAdditionalProperties().put("status", java.util.Map.of(
          "latestCreatedRevisionName", latest, "latestReadyRevisionName", latest, "traffic", traffic,
          "url", "http://burst-engine." + ns + ".example.com",
          "address", java.util.Map.of("url", "http://burst-engine." + ns + ".svc.cluster.local"),
          "conditions", List.of(java.util.Map.of("type", "Ready", "status", "True"))));
      try {
        ksvc.updateStatus(live);
        return;
      } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
        if (e.getCode() != 409 || attempt == 10) {
          throw e; // the operator wrote the spec in between: read again
        }
      }
    }
  }
}
