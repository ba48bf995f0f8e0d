package dev.modelplane.operator.ome.isvc;

import dev.modelplane.operator.common.ObjectApplier;
import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.FineTunedWeight;
import dev.modelplane.api.ome.v1beta1.InferenceService;
import dev.modelplane.operator.OmeServingSettings;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.ome.storage.BaseModelKey;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Service;
import dev.modelplane.api.ome.v1beta1.ServingRuntimeSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OmeServingPlannerTest {
  private static final ClusterBaseModel MODEL = Serialization.unmarshal("""
      apiVersion: ome.io/v1beta1
      kind: ClusterBaseModel
      metadata: {name: llama}
      spec:
        vendor: meta
        modelFormat: {name: safetensors, version: "1.0.0"}
        modelFramework: {name: transformers, version: "4.43.0"}
        modelArchitecture: LlamaForCausalLM
        modelParameterSize: 8B
        storage: {storageUri: "hf://meta/llama", path: /raid/llama}
      """, ClusterBaseModel.class);
  private static final ClusterServingRuntime RUNTIME = Serialization.unmarshal("""
      apiVersion: ome.io/v1beta1
      kind: ClusterServingRuntime
      metadata: {name: vllm}
      spec:
        acceleratorRequirements: {acceleratorClasses: [h100]}
        supportedModelFormats:
          - name: llama
            modelFormat: {name: safetensors, version: "1.0.0"}
            modelFramework: {name: transformers, version: "4.43.0"}
            modelArchitecture: LlamaForCausalLM
            autoSelect: true
            acceleratorConfig:
              h100: {tensorParallelismOverride: {tensorParallelSize: 2}, environmentOverride: {FAST: "1"}}
        engineConfig:
          runner:
            name: ome-container
            image: docker.io/vllm/vllm-openai:v0.25.1
            args: [--model=$(MODEL_PATH), --tensor-parallel-size=1, --port=8080]
            ports: [{containerPort: 8080, name: http1}]
            resources: {limits: {nvidia.com/gpu: "1"}}
        decoderConfig:
          runner:
            name: ome-container
            image: docker.io/vllm/vllm-openai:v0.25.1
            args: [--model=$(MODEL_PATH)]
            ports: [{containerPort: 8080}]
      """, ClusterServingRuntime.class);

  private static InferenceService isvc(String yaml) {
    return Serialization.unmarshal("apiVersion: ome.io/v1beta1\nkind: InferenceService\n" + yaml,
        InferenceService.class);
  }

  private static OmePlan plan(InferenceService isvc, FineTunedWeight weight, OperatorSettings settings) {
    ServedModel model = new ServedModel(BaseModelKey.of(MODEL), Map.of(), MODEL.getSpec(), weight, "/raid/llama",
        weight == null ? null : "/raid/adapters/support");
    OmeServingPlanner.Result r = OmeServingPlanner.plan(isvc, PredictorConversion.effective(isvc.getSpec()), model,
        List.of(), List.of(RUNTIME), settings);
    assertThat(r).as("%s", r).isInstanceOf(OmeServingPlanner.Planned.class);
    return ((OmeServingPlanner.Planned) r).plan();
  }

  private static OmePlan plan(String yaml) {
    return plan(isvc(yaml), null, OperatorSettings.defaults());
  }

  private static String blocked(String yaml) {
    ServedModel model = new ServedModel(BaseModelKey.of(MODEL), Map.of(), MODEL.getSpec(), null, "/raid/llama", null);
    InferenceService isvc = isvc(yaml);
    OmeServingPlanner.Result r = OmeServingPlanner.plan(isvc, isvc.getSpec(), model, List.of(), List.of(RUNTIME),
        OperatorSettings.defaults());
    assertThat(r).isInstanceOf(OmeServingPlanner.Blocked.class);
    return ((OmeServingPlanner.Blocked) r).blocked().message();
  }

  @SuppressWarnings("unchecked")
  private static <T extends HasMetadata> T find(OmePlan plan, Class<T> type, String name) {
    return (T) plan.objects().stream().filter(o -> type.isInstance(o) && o.getMetadata().getName().equals(name))
        .findFirst().orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " in "
            + plan.objects().stream().map(ObjectApplier::key).toList()));
  }

  private static GenericKubernetesResource generic(OmePlan plan, String kind, String name) {
    return plan.objects().stream().filter(o -> o instanceof GenericKubernetesResource g && g.getKind().equals(kind)
        && g.getMetadata().getName().equals(name)).map(o -> (GenericKubernetesResource) o).findFirst()
        .orElseThrow(() -> new AssertionError("no " + kind + " " + name));
  }

  @Test
  void theServicesSecurityContextsAreMergedOverTheRestrictedDefaults() {
    OmePlan plan = plan("""
        metadata: {name: sec, namespace: llm}
        spec:
          model: {name: llama}
          engine:
            securityContext: {runAsUser: 3000, supplementalGroups: [44]}
            runner:
              securityContext: {readOnlyRootFilesystem: true, capabilities: {add: [IPC_LOCK]}}
        """);
    var pod = find(plan, Deployment.class, "sec-engine").getSpec().getTemplate().getSpec();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(3000L);
    assertThat(pod.getSecurityContext().getSupplementalGroups()).containsExactly(44L);
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(1000L);
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    Container engine = pod.getContainers().getFirst();
    assertThat(engine.getSecurityContext().getReadOnlyRootFilesystem()).isTrue();
    assertThat(engine.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(engine.getSecurityContext().getCapabilities().getAdd()).containsExactly("IPC_LOCK");
    assertThat(engine.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(engine.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("HOME");
      assertThat(e.getValue()).isEqualTo("/home/modelplane");
    });
  }

  @Test
  void rawModeMakesDeploymentServiceHpaPdbAndTheServicesOwnService() {
    OmePlan plan = plan("""
        metadata: {name: chat, namespace: llm, labels: {team: a}}
        spec:
          model: {name: llama}
          acceleratorSelector: {acceleratorClass: h100}
          engine: {minReplicas: 2, maxReplicas: 5, scaleTarget: 60, runner: {args: [--max-num-seqs=64]}}
        """);
    assertThat(plan.objects()).extracting(ObjectApplier::key).containsExactly("apps/v1/Deployment/chat-engine",
        "v1/Service/chat-engine", "autoscaling/v2/HorizontalPodAutoscaler/chat-engine",
        "policy/v1/PodDisruptionBudget/chat-engine", "v1/Service/chat");
    Deployment d = find(plan, Deployment.class, "chat-engine");
    assertThat(d.getSpec().getReplicas()).as("left to the autoscaler").isNull();
    assertThat(d.getSpec().getSelector().getMatchLabels()).containsExactly(Map.entry("app", "chat-engine"));
    assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal()).isZero();
    assertThat(d.getSpec().getRevisionHistoryLimit()).isEqualTo(10);
    assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).containsEntry("app", "chat-engine")
        .containsEntry("ome.io/inferenceservice", "chat").containsEntry("component", "engine")
        .containsEntry("serving-runtime", "vllm").containsEntry("team", "a");
    var pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getNodeSelector()).containsEntry("models.ome.io/clusterbasemodel.llama", "Ready");
    Container main = pod.getContainers().getFirst();
    assertThat(main.getArgs()).containsExactly("--model=$(MODEL_PATH)", "--tensor-parallel-size=2", "--port=8080",
        "--max-num-seqs=64");
    assertThat(main.getEnv()).extracting(e -> e.getName() + "=" + e.getValue()).contains("FAST=1",
        "MODEL_PATH=/raid/llama", "PARALLELISM_SIZE=1");
    HorizontalPodAutoscaler hpa = find(plan, HorizontalPodAutoscaler.class, "chat-engine");
    assertThat(hpa.getSpec().getMinReplicas()).isEqualTo(2);
    assertThat(hpa.getSpec().getMaxReplicas()).isEqualTo(5);
    assertThat(hpa.getSpec().getMetrics().getFirst().getResource().getTarget().getAverageUtilization())
        .isEqualTo(60);
    assertThat(find(plan, PodDisruptionBudget.class, "chat-engine").getSpec().getMaxUnavailable().getIntVal())
        .isEqualTo(1);
    Service external = find(plan, Service.class, "chat");
    assertThat(external.getSpec().getSelector()).containsEntry("component", "engine");
    assertThat(external.getSpec().getPorts().getFirst().getPort()).isEqualTo(8080);
  }

  @Test
  void autoscalerClassesPickHpaKedaOrNothing() {
    OmePlan keda = plan("""
        metadata: {name: k, namespace: llm, annotations: {ome.io/autoscalerClass: keda}}
        spec:
          model: {name: llama}
          engine: {minReplicas: 0, maxReplicas: 4}
          decoder: {}
          kedaConfig: {customPromQuery: 'sum(rate(x{svc="%s"}[1m]))', scalingThreshold: "5",
            authenticationRef: {name: prom}, authModes: bearer}
        """);
    GenericKubernetesResource so = generic(keda, "ScaledObject", "scaledobject-k-engine");
    Map<String, Object> spec = (Map<String, Object>) so.getAdditionalProperties().get("spec");
    assertThat(spec).containsEntry("minReplicaCount", 1).containsEntry("maxReplicaCount", 4);
    Map<String, Object> trigger = ((List<Map<String, Object>>) spec.get("triggers")).getFirst();
    assertThat((Map<String, Object>) trigger.get("metadata")).containsEntry("query", "sum(rate(x{svc=\"k-engine\"}"
        + "[1m]))").containsEntry("threshold", "5").containsEntry("operator", "LessThanOrEqual")
        .containsEntry("serverAddress", Autoscalers.DEFAULT_PROMETHEUS).containsEntry("authModes", "bearer");
    assertThat(keda.objects()).noneMatch(o -> o instanceof HorizontalPodAutoscaler);
    OmePlan external = plan("""
        metadata: {name: e, namespace: llm, annotations: {ome.io/autoscalerClass: external}}
        spec: {model: {name: llama}, engine: {}}
        """);
    assertThat(external.objects()).noneMatch(o -> o instanceof HorizontalPodAutoscaler
        || o.getKind().equals("ScaledObject"));
  }

  @Test
  void theRuntimesTopLevelPodFieldsReachTheEngineUnderItsOwnAndLegacyWorkersMakeItMultiNode() {
    ClusterServingRuntime runtime = Serialization.unmarshal(Serialization.asYaml(RUNTIME), ClusterServingRuntime.class);
    ServingRuntimeSpec spec = runtime.getSpec();
    spec.setTolerations(List.of(new io.fabric8.kubernetes.api.model.TolerationBuilder().withKey("gpu")
        .withOperator("Exists").build()));
    spec.setImagePullSecrets(List.of(new io.fabric8.kubernetes.api.model.LocalObjectReference("registry")));
    spec.setSchedulerName("gang");
    spec.setLabels(Map.of("tier", "gpu"));
    spec.setVolumes(List.of(new io.fabric8.kubernetes.api.model.VolumeBuilder().withName("shm").withNewEmptyDir()
        .withMedium("Memory").endEmptyDir().build()));
    InferenceService isvc = isvc("""
        metadata: {name: chat, namespace: llm}
        spec:
          model: {name: llama}
          engine: {schedulerName: own}
          router: {runner: {name: router, image: r}}
        """);
    ServedModel model = new ServedModel(BaseModelKey.of(MODEL), Map.of(), MODEL.getSpec(), null, "/raid/llama", null);
    OmePlan plan = ((OmeServingPlanner.Planned) OmeServingPlanner.plan(isvc, isvc.getSpec(), model, List.of(),
        List.of(runtime), OperatorSettings.defaults())).plan();
    var engine = find(plan, Deployment.class, "chat-engine").getSpec().getTemplate();
    assertThat(engine.getSpec().getTolerations()).extracting(t -> t.getKey()).contains("gpu");
    assertThat(engine.getSpec().getImagePullSecrets()).extracting(r -> r.getName()).containsExactly("registry");
    assertThat(engine.getSpec().getSchedulerName()).as("the component's own wins").isEqualTo("own");
    assertThat(engine.getSpec().getVolumes()).extracting(v -> v.getName()).contains("shm");
    assertThat(engine.getMetadata().getLabels()).containsEntry("tier", "gpu");
    var router = find(plan, Deployment.class, "chat-router").getSpec().getTemplate();
    assertThat(router.getSpec().getImagePullSecrets()).isNullOrEmpty();
    assertThat(router.getSpec().getVolumes()).extracting(v -> v.getName()).doesNotContain("shm");

    spec.setWorkers(Serialization.unmarshal("size: 2", dev.modelplane.api.ome.v1beta1.WorkerPodSpec.class));
    OmePlan multi = ((OmeServingPlanner.Planned) OmeServingPlanner.plan(isvc, isvc.getSpec(), model, List.of(),
        List.of(runtime), OperatorSettings.defaults())).plan();
    assertThat(multi.components().getFirst().mode()).isEqualTo(ComponentModes.Mode.MULTI_NODE);
  }

  @Test
  void enableKedaChoosesKedaUnlessTheAnnotationNamesAnotherAutoscaler() {
    OmePlan enabled = plan("""
        metadata: {name: k, namespace: llm}
        spec:
          model: {name: llama}
          engine: {maxReplicas: 3}
          kedaConfig: {enableKeda: true, scalingThreshold: "7"}
        """);
    GenericKubernetesResource so = generic(enabled, "ScaledObject", "scaledobject-k-engine");
    Map<String, Object> trigger = ((List<Map<String, Object>>) ((Map<String, Object>) so.getAdditionalProperties()
        .get("spec")).get("triggers")).getFirst();
    assertThat((Map<String, Object>) trigger.get("metadata")).containsEntry("threshold", "7");
    assertThat(enabled.objects()).noneMatch(o -> o instanceof HorizontalPodAutoscaler);
    OmePlan perComponent = plan("""
        metadata: {name: c, namespace: llm}
        spec:
          model: {name: llama}
          engine: {kedaConfig: {enableKeda: true}}
        """);
    generic(perComponent, "ScaledObject", "scaledobject-c-engine");
    OmePlan overruled = plan("""
        metadata: {name: h, namespace: llm, annotations: {ome.io/autoscalerClass: hpa}}
        spec:
          model: {name: llama}
          engine: {}
          kedaConfig: {enableKeda: true}
        """);
    assertThat(overruled.objects()).anyMatch(o -> o instanceof HorizontalPodAutoscaler)
        .noneMatch(o -> o.getKind().equals("ScaledObject"));
    OmePlan disabled = plan("""
        metadata: {name: d, namespace: llm}
        spec: {model: {name: llama}, engine: {}, kedaConfig: {enableKeda: false}}
        """);
    assertThat(disabled.objects()).anyMatch(o -> o instanceof HorizontalPodAutoscaler);
  }

  @Test
  void multiNodeMakesALeaderWorkerSetAndAServiceOnThisComponentsLeaders() {
    OmePlan plan = plan("""
        metadata: {name: big, namespace: llm}
        spec:
          model: {name: llama}
          engine:
            minReplicas: 2
            leader: {runner: {name: ome-container, image: sglang:1, args: [--rank=0]}}
            worker: {size: 3, runner: {name: ome-container, image: sglang:1}}
        """);
    assertThat(plan.components().getFirst().mode()).isEqualTo(ComponentModes.Mode.MULTI_NODE);
    GenericKubernetesResource lws = generic(plan, "LeaderWorkerSet", "lws-big-engine");
    Map<String, Object> spec = (Map<String, Object>) lws.getAdditionalProperties().get("spec");
    assertThat(spec).containsEntry("replicas", 2).containsEntry("startupPolicy", "LeaderCreated");
    Map<String, Object> template = (Map<String, Object>) spec.get("leaderWorkerTemplate");
    assertThat(template).containsEntry("size", 4).containsEntry("restartPolicy", "RecreateGroupOnPodRestart");
    Map<String, Object> leader = (Map<String, Object>) template.get("leaderTemplate");
    assertThat((Map<String, Object>) ((Map<String, Object>) leader.get("metadata")).get("labels"))
        .containsEntry("ray.io/node-type", "head").containsEntry("app", "big-engine");
    Service service = find(plan, Service.class, "big-engine");
    assertThat(service.getSpec().getSelector()).containsOnly(Map.entry("app", "big-engine"),
        Map.entry("leaderworkerset.sigs.k8s.io/worker-index", "0"));
    assertThat(plan.objects()).noneMatch(o -> o instanceof Deployment || o instanceof HorizontalPodAutoscaler);
  }

  @Test
  void minReplicasZeroIsServerlessWithItsScaleSettingsAndACanaryOnThePreviousRevision() {
    InferenceService isvc = isvc("""
        metadata: {name: sl, namespace: llm}
        spec:
          model: {name: llama}
          engine: {minReplicas: 0, maxReplicas: 3, scaleMetric: concurrency, scaleTarget: 8,
            containerConcurrency: 16, timeoutSeconds: 600, canaryTrafficPercent: 20}
        status:
          components: {engine: {latestRolledoutRevision: sl-engine-00001}}
        """);
    OmePlan plan = plan(isvc, null, OperatorSettings.defaults());
    GenericKubernetesResource ksvc = generic(plan, "Service", "sl-engine");
    Map<String, Object> spec = (Map<String, Object>) ksvc.getAdditionalProperties().get("spec");
    Map<String, Object> template = (Map<String, Object>) spec.get("template");
    assertThat((Map<String, Object>) ((Map<String, Object>) template.get("metadata")).get("annotations"))
        .containsEntry("autoscaling.knative.dev/min-scale", "0").containsEntry("autoscaling.knative.dev/max-scale",
            "3").containsEntry("autoscaling.knative.dev/metric", "concurrency")
        .containsEntry("autoscaling.knative.dev/target", "8");
    assertThat((Map<String, Object>) template.get("spec")).containsEntry("containerConcurrency", 16L)
        .containsEntry("timeoutSeconds", 600L);
    assertThat((List<Map<String, Object>>) spec.get("traffic")).containsExactly(
        Map.of("latestRevision", true, "percent", 20L),
        Map.of("revisionName", "sl-engine-00001", "tag", "prev", "percent", 80L));
    assertThat(plan.objects()).as("no in-cluster Service for a serverless entry").noneMatch(o ->
        o instanceof Service && o.getMetadata().getName().equals("sl"));
    // Only what Knative's webhook accepts by default: no pod-level context, the user on each container.
    Map<String, Object> podSpec = (Map<String, Object>) template.get("spec");
    assertThat(podSpec).doesNotContainKey("securityContext");
    Map<String, Object> engine = ((List<Map<String, Object>>) podSpec.get("containers")).get(0);
    assertThat((Map<String, Object>) engine.get("securityContext")).containsOnlyKeys("runAsUser", "runAsNonRoot",
        "capabilities").containsEntry("runAsUser", 1000L).containsEntry("runAsNonRoot", true)
        .containsEntry("capabilities", Map.of("drop", List.of("ALL")));
  }

  @Test
  void aDecoderKeepsTheEngineRawAndTheDefaultRouterSplitsPrefillAndDecodeOverAnInferencePool() {
    OmePlan plan = plan("""
        metadata: {name: pd, namespace: llm}
        spec: {model: {name: llama}, engine: {minReplicas: 0}, decoder: {}, router: {config: {LOG: debug}}}
        """);
    assertThat(plan.components()).extracting(ComponentPlan::component, ComponentPlan::mode).containsExactly(
        org.assertj.core.groups.Tuple.tuple("engine", ComponentModes.Mode.RAW),
        org.assertj.core.groups.Tuple.tuple("decoder", ComponentModes.Mode.RAW),
        org.assertj.core.groups.Tuple.tuple("router", ComponentModes.Mode.RAW));
    assertThat(find(plan, Deployment.class, "pd-engine").getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry("llm-d.ai/role", "prefill").containsEntry("modelplane.dev/model-server", "true");
    assertThat(find(plan, Deployment.class, "pd-decoder").getSpec().getTemplate().getMetadata().getLabels())
        .containsEntry("llm-d.ai/role", "decode");
    var router = find(plan, Deployment.class, "pd-router").getSpec().getTemplate().getSpec();
    assertThat(router.getServiceAccountName()).isEqualTo("pd-router");
    Container c = router.getContainers().getFirst();
    assertThat(c.getImage()).startsWith("ghcr.io/modelplane/modelplane:");
    assertThat(c.getArgs()).contains("router", "--pool=pd", "--pool-namespace=$(NAMESPACE)")
        .anySatisfy(a -> assertThat(a).startsWith("--config-text=").contains("prefill-filter"));
    assertThat(c.getEnv()).extracting(e -> e.getName()).contains("NAMESPACE", "LOG");
    assertThat(router.getVolumes()).as("the router gets no hostPath volume of the model")
        .noneSatisfy(v -> assertThat(v.getHostPath()).isNotNull());
    assertThat(c.getVolumeMounts()).as("but does not mount it").isNullOrEmpty();
    GenericKubernetesResource pool = generic(plan, "InferencePool", "pd");
    assertThat(pool.getAdditionalProperties().get("spec").toString()).contains("modelplane.dev/model-server=true")
        .contains("pd-router");
    assertThat(find(plan, Service.class, "pd").getSpec().getSelector()).containsEntry("component", "router");
    assertThat(plan.objects()).extracting(ObjectApplier::key).contains("v1/ServiceAccount/pd-router",
        "rbac.authorization.k8s.io/v1/Role/pd-router", "rbac.authorization.k8s.io/v1/RoleBinding/pd-router");
  }

  @Test
  void longNamesAreHashedAndIngressUsesTheDomainTemplate() {
    String name = "a".repeat(60);
    OperatorSettings ingress = OperatorSettings.builder().omeServing(new OmeServingSettings(null, true, false, null,
        "nginx", "models.example.org", null)).build();
    OmePlan plan = plan(isvc("metadata: {name: " + name + ", namespace: llm}\nspec: {model: {name: llama}, "
        + "engine: {}}\n"), null, ingress);
    String hashed = dev.modelplane.operator.common.Names.child(name, "engine");
    assertThat(hashed).hasSizeLessThanOrEqualTo(63).endsWith("-engine");
    assertThat(find(plan, Deployment.class, hashed)).isNotNull();
    Ingress i = find(plan, Ingress.class, name);
    assertThat(i.getSpec().getIngressClassName()).isEqualTo("nginx");
    assertThat(i.getSpec().getRules().getFirst().getHost()).isEqualTo(name + ".llm.models.example.org");
    assertThat(i.getSpec().getRules().getFirst().getHttp().getPaths().getFirst().getBackend().getService()
        .getName()).isEqualTo(hashed);
  }

  @Test
  void aLoraAdapterIsMountedAndLoadedByFlagAndMergedWeightsAreServedAsTheModel() {
    FineTunedWeight lora = Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: FineTunedWeight
        metadata: {name: support}
        spec:
          baseModelRef: {name: llama}
          modelType: LoRA
          hyperParameters: {strategy: lora}
          storage: {storageUri: "hf://org/support-lora", path: /raid/adapters/support}
        """, FineTunedWeight.class);
    InferenceService isvc = isvc("""
        metadata: {name: ft, namespace: llm}
        spec: {model: {name: llama, fineTunedWeights: [support]}, engine: {}}
        """);
    var pod = find(plan(isvc, lora, OperatorSettings.defaults()), Deployment.class, "ft-engine").getSpec()
        .getTemplate().getSpec();
    assertThat(pod.getContainers().getFirst().getArgs()).containsSubsequence("--enable-lora", "--lora-modules",
        "support=/opt/ml/adapters/support");
    assertThat(pod.getNodeSelector()).containsEntry("models.ome.io/clusterbasemodel.llama", "Ready")
        .containsEntry("models.ome.io/finetunedweight.support", "Ready");
    FineTunedWeight merged = Serialization.unmarshal(Serialization.asYaml(lora).replace("hyperParameters:",
        "configuration:\n    merged_weights: true\n  hyperParameters:"), FineTunedWeight.class);
    var mergedPod = find(plan(isvc, merged, OperatorSettings.defaults()), Deployment.class, "ft-engine").getSpec()
        .getTemplate().getSpec();
    assertThat(mergedPod.getContainers().getFirst().getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("MODEL_PATH");
      assertThat(e.getValue()).isEqualTo("/raid/adapters/support");
    });
    assertThat(mergedPod.getNodeSelector()).containsOnlyKeys("models.ome.io/finetunedweight.support");
    assertThat(mergedPod.getContainers().getFirst().getArgs()).doesNotContain("--enable-lora");
  }

  @Test
  void virtualDeploymentsHaveNoObjects() {
    OmePlan plan = plan("""
        metadata: {name: v, namespace: llm, annotations: {ome.io/deploymentMode: VirtualDeployment}}
        spec: {model: {name: llama}, engine: {}}
        """);
    assertThat(plan.virtual()).isTrue();
    assertThat(plan.objects()).isEmpty();
  }

  @Test
  void whatCannotBeServedIsExplained() {
    assertThat(blocked("""
        metadata: {name: x, namespace: llm}
        spec: {model: {name: llama}}
        """)).isEqualTo("spec.engine: an engine component is required (or the deprecated spec.predictor)");
    assertThat(blocked("""
        metadata: {name: x, namespace: llm}
        spec: {model: {name: llama}, engine: {}, router: {runner: {name: r, image: router:1, args: ["{{.Spec}}"]}}}
        """)).startsWith("the runtime's placeholder {{ .Spec }} is not one of");
    assertThat(blocked("""
        metadata: {name: x, namespace: llm}
        spec: {model: {name: llama}, runtime: {name: nope}, engine: {}}
        """)).isEqualTo("runtime nope not found in namespace llm or at cluster scope");
  }

  private static final String PRECISE = """
      plugins:
      - type: precise-prefix-cache-scorer
        parameters:
          tokenProcessorConfig: {blockSize: 64, hashSeed: "42"}
      schedulingProfiles:
      - name: default
        plugins: [{pluginRef: precise-prefix-cache-scorer}]
      """;

  private static InferenceService annotated(String name, String spec, Map<String, String> annotations) {
    InferenceService isvc = isvc("metadata: {name: " + name + ", namespace: llm}\nspec: " + spec + "\n");
    isvc.getMetadata().setAnnotations(new java.util.LinkedHashMap<>(annotations));
    return isvc;
  }

  private static Container main(OmePlan plan, String deployment) {
    return find(plan, Deployment.class, deployment).getSpec().getTemplate().getSpec().getContainers().getFirst();
  }

  private static String arg(Container c, String flag) {
    int i = c.getArgs().indexOf(flag);
    assertThat(i).as(flag + " in " + c.getArgs()).isNotNegative();
    return c.getArgs().get(i + 1);
  }

  @Test
  void theDefaultRoutersPreciseScorerMakesEngineAndDecoderPublishTheirKvEvents() {
    OmePlan plan = plan(annotated("pd", "{model: {name: llama}, engine: {}, decoder: {}, router: {}}",
        Map.of("modelplane.dev/endpoint-picker-config", PRECISE)), null, OperatorSettings.defaults());
    for (String component : List.of("pd-engine", "pd-decoder")) {
      Container vllm = main(plan, component);
      assertThat(arg(vllm, "--kv-events-config")).isEqualTo("{\"enable_kv_cache_events\":true,\"publisher\":"
          + "\"zmq\",\"endpoint\":\"tcp://*:5557\",\"topic\":\"kv@$(POD_IP):8080@llama\"}");
      assertThat(arg(vllm, "--prefix-caching-hash-algo")).isEqualTo("sha256_cbor");
      assertThat(arg(vllm, "--block-size")).isEqualTo("64");
      assertThat(vllm.getEnv()).anySatisfy(e -> {
        assertThat(e.getName()).isEqualTo("PYTHONHASHSEED");
        assertThat(e.getValue()).isEqualTo("42");
      });
      assertThat(vllm.getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort()).contains("kv-events:5557");
    }
    Container router = main(plan, "pd-router");
    // The annotation's configuration replaces the generated prefill/decode one.
    assertThat(router.getArgs()).filteredOn(a -> a.startsWith("--config-text=")).containsExactly("--config-text="
        + PRECISE);
    assertThat(router.getArgs()).noneMatch(a -> a.startsWith("--tokenizer"));
    assertThat(plan.precisePrefix().ok()).isTrue();
    assertThat(plan.precisePrefix().message()).contains("port 5557").contains("no tokenizer (the model lies in a "
        + "node directory");
  }

  @Test
  void centralModeOpensTheRoutersPortAndAnAutoscaledRouterIsReported() {
    OmePlan plan = plan(annotated("c", "{model: {name: llama}, engine: {}, router: {}}", Map.of(
        "modelplane.dev/endpoint-picker-config", PRECISE.replace("hashSeed: \"42\"}",
            "hashSeed: \"42\"}\n    kvEventsConfig: {discoverPods: false}"))), null, OperatorSettings.defaults());
    assertThat(arg(main(plan, "c-engine"), "--kv-events-config"))
        .contains("\"endpoint\":\"tcp://c-router.llm.svc:5557\"");
    assertThat(main(plan, "c-router").getPorts()).extracting(p -> p.getName() + ":" + p.getContainerPort())
        .contains("kv-events:5557");
    assertThat(find(plan, Service.class, "c-router").getSpec().getPorts()).extracting(p -> p.getName())
        .contains("kv-events");
    assertThat(plan.precisePrefix().ok()).isFalse();
    assertThat(plan.precisePrefix().message()).startsWith("spec.router.maxReplicas: each server connects to one of "
        + "up to 2 router replicas");
  }

  @Test
  void aClaimModelsFilesGiveTheRouterItsTokenizer() {
    ClusterBaseModel onClaim = Serialization.unmarshal(Serialization.asYaml(MODEL).replace("hf://meta/llama",
        "pvc://models/llama/8b"), ClusterBaseModel.class);
    ServedModel model = new ServedModel(BaseModelKey.of(onClaim), Map.of(), onClaim.getSpec(), null, null, null);
    InferenceService isvc = annotated("t", "{model: {name: llama}, engine: {}, router: {}}",
        Map.of("modelplane.dev/endpoint-picker-config", PRECISE));
    OmeServingPlanner.Result r = OmeServingPlanner.plan(isvc, isvc.getSpec(), model, List.of(), List.of(RUNTIME),
        OperatorSettings.defaults());
    OmePlan plan = ((OmeServingPlanner.Planned) r).plan();
    var pod = find(plan, Deployment.class, "t-router").getSpec().getTemplate().getSpec();
    Container router = pod.getContainers().getFirst();
    assertThat(router.getArgs()).contains("--tokenizer=/tokenizer");
    assertThat(router.getVolumeMounts()).filteredOn(m -> m.getName().equals("tokenizer")).singleElement()
        .satisfies(m -> {
          assertThat(m.getSubPath()).isEqualTo("llama/8b");
          assertThat(m.getReadOnly()).isTrue();
        });
    assertThat(pod.getVolumes()).filteredOn(v -> v.getName().equals("tokenizer")).singleElement()
        .satisfies(v -> assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("models"));
    assertThat(plan.precisePrefix().message()).contains("tokenizer from the model's claim models");
  }

  @Test
  void sglangServersAndRoutersOfTheirOwnAreReportedAndLeftAlone() {
    OmePlan sglang = plan(annotated("s", "{model: {name: llama}, engine: {runner: {image: lmsysorg/sglang:v0.5}}, "
        + "router: {}}", Map.of("modelplane.dev/endpoint-picker-config", PRECISE)), null, OperatorSettings.defaults());
    assertThat(main(sglang, "s-engine").getArgs()).noneMatch(a -> a.startsWith("--kv-events-config")
        || a.equals("--block-size"));
    assertThat(sglang.precisePrefix().message()).isEqualTo("spec.engine: the container ome-container runs SGLang, "
        + "whose KV-cache events the router does not read; it is left as it is");

    OmePlan own = plan(annotated("o", "{model: {name: llama}, engine: {}, router: {runner: {name: r, image: "
        + "router:1}}}", Map.of("modelplane.dev/endpoint-picker-config", PRECISE)), null, OperatorSettings.defaults());
    assertThat(main(own, "o-engine").getArgs()).noneMatch(a -> a.startsWith("--kv-events-config"));
    assertThat(own.precisePrefix().reason()).isEqualTo("PickerConfigIgnored");

    OmePlan plain = plan(annotated("p", "{model: {name: llama}, engine: {}, router: {}}", Map.of()), null,
        OperatorSettings.defaults());
    assertThat(plain.precisePrefix()).isNull();
    assertThat(main(plain, "p-engine").getArgs()).containsExactly("--model=$(MODEL_PATH)", "--tensor-parallel-size=1",
        "--port=8080");
  }

  private static final String CENTRAL = PRECISE.replace("hashSeed: \"42\"}",
      "hashSeed: \"42\"}\n    kvEventsConfig: {discoverPods: false}");

  @Test
  void theServersEventSocketsAreInNoServiceAndOnlyTheRouterMayReachThem() {
    OmePlan plan = plan(annotated("pd", "{model: {name: llama}, engine: {}, decoder: {}, router: {}}",
        Map.of("modelplane.dev/endpoint-picker-config", PRECISE.replace("hashSeed: \"42\"}",
            "hashSeed: \"42\"}\n    kvEventsConfig: {podDiscoveryConfig: {replayPort: 5558}}"))), null,
        OperatorSettings.defaults());
    assertThat(main(plan, "pd-engine").getPorts()).extracting(p -> p.getName()).contains("kv-events", "kv-replay");
    for (String component : List.of("pd-engine", "pd-decoder")) {
      assertThat(find(plan, Service.class, component).getSpec().getPorts()).extracting(p -> p.getName())
          .as(component).doesNotContain("kv-events", "kv-replay").isNotEmpty();
    }
    NetworkPolicy policy = find(plan, NetworkPolicy.class, "pd-kv-events");
    assertThat(policy.getMetadata().getNamespace()).isEqualTo("llm");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsOnly(
        Map.entry("ome.io/inferenceservice", "pd"), Map.entry("modelplane.dev/model-server", "true"));
    assertThat(policy.getSpec().getIngress().getFirst().getFrom().getFirst().getPodSelector().getMatchLabels())
        .containsOnly(Map.entry("ome.io/inferenceservice", "pd"), Map.entry("component", "router"));
    assertThat(policy.getSpec().getIngress().getFirst().getPorts()).extracting(p -> p.getPort().getIntVal())
        .containsExactly(5557, 5558);
    assertThat(plan(annotated("p", "{model: {name: llama}, engine: {}, router: {}}", Map.of()), null,
        OperatorSettings.defaults()).objects()).noneMatch(o -> o instanceof NetworkPolicy);
  }

  @Test
  void besideTheNamespacesOwnIngressPoliciesOnlyTheEventsPortsAreOpened() {
    OmePlan plan = plan(annotated("pd", "{model: {name: llama}, engine: {}, decoder: {}, router: {}}",
        Map.of("modelplane.dev/endpoint-picker-config", PRECISE)), null, OperatorSettings.defaults());
    NetworkPolicy servers = new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder()
        .withNewMetadata().withName("from-gateway").withNamespace("llm").endMetadata().withNewSpec()
        .withNewPodSelector().withMatchLabels(Map.of("ome.io/inferenceservice", "pd")).endPodSelector().endSpec()
        .build();
    assertThat(find(PreciseRouting.settle(plan, List.of()), NetworkPolicy.class, "pd-kv-events").getSpec()
        .getIngress()).hasSize(4);
    OmePlan settled = PreciseRouting.settle(plan, List.of(servers));
    assertThat(find(settled, NetworkPolicy.class, "pd-kv-events").getSpec().getIngress()).singleElement()
        .satisfies(rule -> assertThat(rule.getPorts()).extracting(p -> p.getPort().getIntVal())
            .containsExactly(5557));
    assertThat(settled.precisePrefix()).isEqualTo(plan.precisePrefix());
    // The labels the workloads add to their pods count too: app=<component>, which OME's own Services select by.
    NetworkPolicy byApp = new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder(servers)
        .editSpec().editPodSelector().withMatchLabels(null).addNewMatchExpression().withKey("app")
        .withOperator("In").withValues("pd-engine", "pd-decoder").endMatchExpression().endPodSelector().endSpec()
        .build();
    assertThat(find(PreciseRouting.settle(plan, List.of(byApp)), NetworkPolicy.class, "pd-kv-events").getSpec()
        .getIngress()).hasSize(1);
    // Selecting the engine's pods only: the decoder's are not opened either, and that is reported.
    NetworkPolicy engineOnly = new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder(servers)
        .editSpec().editPodSelector().addToMatchLabels("component", "engine").endPodSelector().endSpec().build();
    OmePlan partly = PreciseRouting.settle(plan, List.of(engineOnly));
    assertThat(find(partly, NetworkPolicy.class, "pd-kv-events").getSpec().getIngress()).hasSize(1);
    assertThat(partly.precisePrefix().ok()).isFalse();
    assertThat(partly.precisePrefix().message()).contains("not those labelled").contains("component=decoder");
  }

  @Test
  void centralModeAdmitsOnlyTheServersToTheRoutersEventsPort() {
    OmePlan plan = plan(annotated("c", "{model: {name: llama}, engine: {}, router: {maxReplicas: 1}}",
        Map.of("modelplane.dev/endpoint-picker-config", CENTRAL)), null, OperatorSettings.defaults());
    assertThat(plan.precisePrefix().ok()).as(plan.precisePrefix().message()).isTrue();
    NetworkPolicy policy = find(plan, NetworkPolicy.class, "c-kv-events");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsEntry("component", "router");
    assertThat(policy.getSpec().getIngress().getFirst().getFrom().getFirst().getPodSelector().getMatchLabels())
        .containsEntry("modelplane.dev/model-server", "true");
    assertThat(policy.getSpec().getIngress().getFirst().getPorts()).extracting(p -> p.getPort().getIntVal())
        .containsExactly(5557);
  }

  @Test
  @SuppressWarnings("unchecked")
  void aServerlessEngineGetsItsFlagsButNoEventPortsWhichKnativeWouldRefuse() {
    OmePlan plan = plan(annotated("sl", "{model: {name: llama}, engine: {minReplicas: 0}, router: {}}",
        Map.of("modelplane.dev/endpoint-picker-config", PRECISE)), null, OperatorSettings.defaults());
    Map<String, Object> spec = (Map<String, Object>) generic(plan, "Service", "sl-engine").getAdditionalProperties()
        .get("spec");
    Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) spec.get("template")).get("spec");
    Map<String, Object> engine = ((List<Map<String, Object>>) pod.get("containers")).getFirst();
    assertThat((List<Map<String, Object>>) engine.get("ports")).extracting(p -> p.get("name")).containsExactly("http1");
    assertThat((List<String>) engine.get("args")).contains("--kv-events-config", "--block-size");
    assertThat(plan.precisePrefix().ok()).as(plan.precisePrefix().message()).isTrue();
  }

  @Test
  void aServerlessRouterCannotTakeTheServersEventsInCentralMode() {
    OmePlan plan = plan(annotated("sr", "{model: {name: llama}, engine: {}, router: {minReplicas: 0, maxReplicas: 1}}",
        Map.of("modelplane.dev/endpoint-picker-config", CENTRAL)), null, OperatorSettings.defaults());
    assertThat(plan.precisePrefix().reason()).isEqualTo("ConflictingSettings");
    assertThat(plan.precisePrefix().message()).isEqualTo("spec.router: a serverless router (minReplicas: 0) is a "
        + "Knative Service, which carries one port, so the servers cannot reach its events port and none is "
        + "rendered; keep minReplicas at 1 or more, or let the router discover the pods (kvEventsConfig.discoverPods: "
        + "true)");
    assertThat(plan.objects()).noneMatch(o -> o instanceof NetworkPolicy);
  }

  @Test
  void aCentralPortTheRouterAlreadyServesOnIsReported() {
    OmePlan plan = plan(annotated("c", "{model: {name: llama}, engine: {}, router: {maxReplicas: 1}}",
        Map.of("modelplane.dev/endpoint-picker-config", CENTRAL.replace("discoverPods: false",
            "discoverPods: false, zmqEndpoint: \"tcp://*:8080\""))), null, OperatorSettings.defaults());
    assertThat(plan.precisePrefix().reason()).isEqualTo("ConflictingSettings");
    assertThat(plan.precisePrefix().message()).startsWith("metadata.annotations[modelplane.dev/endpoint-picker-config]"
        + ": kvEventsConfig.zmqEndpoint's port 8080 is the picker's port http already");
    assertThat(find(plan, Service.class, "c-router").getSpec().getPorts()).extracting(p -> p.getName())
        .doesNotContain("kv-events");
    assertThat(plan.objects()).noneMatch(o -> o instanceof NetworkPolicy);
  }

  @Test
  void everyShellFormIsReportedAndLeftAlone() {
    for (List<List<String>> form : List.of(
        List.of(List.of("sh", "-c", "vllm serve"), List.<String>of()),
        List.of(List.of("bash", "-lc", "--"), List.of("vllm serve")),
        List.of(List.of("/bin/sh", "-ec"), List.of("vllm serve")),
        List.of(List.of("sh"), List.of("-c", "vllm serve")),
        List.of(List.of("/usr/bin/env", "bash", "-o", "pipefail", "-c", "vllm serve"), List.<String>of()))) {
      assertThat(PreciseRouting.shellCommandLine(form.get(0), form.get(1))).as("%s", form).isTrue();
    }
    assertThat(PreciseRouting.shellCommandLine(List.of("vllm", "serve"), List.of("-c", "x"))).isFalse();
    assertThat(PreciseRouting.shellCommandLine(List.of("bash", "/entry.sh"), List.of("-c"))).isFalse();
    assertThat(PreciseRouting.shellCommandLine(null, List.of("--model=/m"))).isFalse();

    OmePlan plan = plan(annotated("sh", "{model: {name: llama}, engine: {runner: {command: [bash, -lc, "
        + "\"exec vllm serve /m\"]}}, router: {}}", Map.of("modelplane.dev/endpoint-picker-config", PRECISE)), null,
        OperatorSettings.defaults());
    assertThat(main(plan, "sh-engine").getArgs()).noneMatch(a -> a.startsWith("--kv-events-config"));
    assertThat(plan.precisePrefix().reason()).isEqualTo("ConflictingSettings");
    assertThat(plan.precisePrefix().message()).startsWith("spec.engine: the container ome-container runs a shell "
        + "command line");
  }
}
