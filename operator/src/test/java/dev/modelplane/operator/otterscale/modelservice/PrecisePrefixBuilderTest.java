package dev.modelplane.operator.otterscale.modelservice;

import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.SETTINGS;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.deployment;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.find;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.has;
import static dev.modelplane.operator.otterscale.modelservice.ModelServiceFixtures.ms;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.modelplane.api.otterscale.v1alpha1.ModelService;
import dev.modelplane.operator.prefixrouting.KvEventsPolicy;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrecisePrefixBuilderTest {
  private static final String MODEL = "Qwen/Qwen3-0.6B";
  private static final String AGGREGATED = """
      model: {name: Qwen/Qwen3-0.6B, image: registry.example/models/qwen3:0.6b}
      engine: {image: vllm/vllm-openai:v0.11.0}
      accelerator: {type: nvidia}
      decode: {replicas: 2}
      """;
  /** Prefill and decode Deployments, decode's vLLM behind the routing sidecar. */
  private static final String PREFILL_DECODE = """
      model: {name: Qwen/Qwen3-0.6B, image: registry.example/models/qwen3:0.6b}
      engine: {}
      accelerator: {type: nvidia}
      decode: {}
      prefill: {}
      routingProxy: {}
      """;
  private static final String DISCOVERY = """
      apiVersion: inference.networking.x-k8s.io/v1alpha1
      kind: EndpointPickerConfig
      plugins:
      - type: precise-prefix-cache-scorer
        parameters:
          tokenProcessorConfig: {blockSize: 64, hashSeed: "42"}
          kvEventsConfig: {podDiscoveryConfig: {socketPort: 5556, replayPort: 5558}}
      - type: queue-scorer
      schedulingProfiles:
      - name: default
        plugins: [{pluginRef: precise-prefix-cache-scorer, weight: 2}, {pluginRef: queue-scorer}]
      """;
  private static final String CENTRAL = """
      plugins:
      - type: precise-prefix-cache-scorer
        parameters:
          tokenProcessorConfig: {blockSizeTokens: 32}
          kvEventsConfig: {discoverPods: false, zmqEndpoint: "tcp://*:5560"}
      schedulingProfiles:
      - name: default
        plugins: [{pluginRef: precise-prefix-cache-scorer}]
      """;
  private static final ObjectMapper JSON = new ObjectMapper();

  private static ModelService annotated(String spec, Map<String, String> annotations) {
    ModelService ms = ms("qwen", spec);
    ms.getMetadata().setAnnotations(new LinkedHashMap<>(annotations));
    return ms;
  }

  /** A plan whose engine sets {@code --kv-events-config} to {@code events} itself, the picker using {@code config}. */
  private static ModelServicePlan withUserEvents(String events, String config) {
    return ModelServicePlanner.plan(annotated("""
        model: {name: Qwen/Qwen3-0.6B, image: r/q:1}
        engine: {args: [--kv-events-config, '%s']}
        accelerator: {type: nvidia}
        decode: {}
        """.formatted(events), Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, config)), SETTINGS);
  }

  private static Container container(Deployment d, String name) {
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    return pod.getContainers().stream().filter(c -> c.getName().equals(name)).findFirst().orElseThrow();
  }

  private static String arg(Container c, String flag) {
    int i = c.getArgs().indexOf(flag);
    assertThat(i).as(flag + " in " + c.getArgs()).isNotNegative();
    return c.getArgs().get(i + 1);
  }

  private static Map<String, EnvVar> env(Container c) {
    Map<String, EnvVar> out = new LinkedHashMap<>();
    c.getEnv().forEach(e -> out.put(e.getName(), e));
    return out;
  }

  private static List<String> ports(Container c) {
    return c.getPorts().stream().map(p -> p.getName() + ":" + p.getContainerPort()).toList();
  }

  @Test
  void discoveryModeServersBindTheirOwnSocketsAndNameThePoolEndpointInTheTopic() throws Exception {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED,
        Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    Container vllm = container(deployment(plan, "qwen-decode"), "vllm");
    JsonNode events = JSON.readTree(arg(vllm, "--kv-events-config"));
    assertThat(events).isEqualTo(JSON.readTree("""
        {"enable_kv_cache_events": true, "publisher": "zmq", "endpoint": "tcp://*:5556",
         "replay_endpoint": "tcp://*:5558", "topic": "kv@$(POD_IP):8000@Qwen/Qwen3-0.6B"}"""));
    assertThat(arg(vllm, "--prefix-caching-hash-algo")).isEqualTo("sha256_cbor");
    assertThat(arg(vllm, "--block-size")).isEqualTo("64");
    assertThat(env(vllm).get("PYTHONHASHSEED").getValue()).isEqualTo("42");
    assertThat(env(vllm).get("POD_IP").getValueFrom().getFieldRef().getFieldPath()).isEqualTo("status.podIP");
    assertThat(ports(vllm)).containsExactly("http:8000", "kv-events:5556", "kv-replay:5558");
    // The picker runs the ModelService's configuration; it binds nothing, so its Service is unchanged.
    ConfigMap config = find(plan, ConfigMap.class, "qwen-epp-config");
    assertThat(config.getData()).containsExactly(Map.entry("endpoint-picker-config.yaml", DISCOVERY));
    Container epp = container(deployment(plan, "qwen-epp"), "epp");
    assertThat(epp.getArgs()).contains("--config-file=/config/endpoint-picker-config.yaml")
        .noneMatch(a -> a.startsWith("--tokenizer"));
    assertThat(ports(epp)).containsExactly("grpc-ext-proc:9002", "grpc-health:9003", "http-metrics:9090");
    assertThat(find(plan, Service.class, "qwen-epp").getSpec().getPorts()).hasSize(2);
    assertThat(plan.precisePrefix().ok()).isTrue();
    assertThat(plan.precisePrefix().reason()).isEqualTo("ServersConfigured");
    assertThat(plan.precisePrefix().message()).contains("port 5556 (replay 5558)").contains("no tokenizer");
  }

  @Test
  void centralModeServersConnectToThePickerServiceWhichExposesTheBoundPort() throws Exception {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED,
        Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, CENTRAL)), SETTINGS);
    Container vllm = container(deployment(plan, "qwen-decode"), "vllm");
    assertThat(JSON.readTree(arg(vllm, "--kv-events-config"))).isEqualTo(JSON.readTree("""
        {"enable_kv_cache_events": true, "publisher": "zmq", "endpoint": "tcp://qwen-epp.team.svc:5560",
         "topic": "kv@$(POD_IP):8000@Qwen/Qwen3-0.6B"}"""));
    assertThat(arg(vllm, "--block-size")).isEqualTo("32");
    assertThat(env(vllm).get("PYTHONHASHSEED").getValue()).isEmpty();
    assertThat(ports(vllm)).containsExactly("http:8000");
    assertThat(ports(container(deployment(plan, "qwen-epp"), "epp"))).contains("kv-events:5560");
    assertThat(find(plan, Service.class, "qwen-epp").getSpec().getPorts())
        .extracting(p -> p.getName() + ":" + p.getPort() + "->" + p.getTargetPort().getIntVal())
        .contains("kv-events:5560->5560");
    assertThat(plan.precisePrefix().ok()).isTrue();
    assertThat(plan.precisePrefix().message()).contains("tcp://qwen-epp.team.svc:5560");
  }

  @Test
  void centralModeWithSeveralPickerReplicasIsReported() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED + """
        inferencePool: {endpointPicker: {replicas: 2}}
        """, Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, CENTRAL)), SETTINGS);
    assertThat(plan.precisePrefix().ok()).isFalse();
    assertThat(plan.precisePrefix().message()).startsWith("spec.inferencePool.endpointPicker.replicas: each server "
        + "connects to one of the 2 picker replicas");
  }

  @Test
  void prefillAndDecodeServersBothPublishUnderThePortThePoolTargets() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(PREFILL_DECODE,
        Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    for (String role : List.of("decode", "prefill")) {
      Container vllm = container(deployment(plan, "qwen-" + role), "vllm");
      // Decode's vLLM listens on 8200 behind the sidecar, but the router knows the endpoint as the pool's 8000.
      assertThat(arg(vllm, "--kv-events-config")).contains("\"topic\":\"kv@$(POD_IP):8000@Qwen/Qwen3-0.6B\"");
    }
    assertThat(arg(container(deployment(plan, "qwen-decode"), "vllm"), "--port")).isEqualTo("8200");
  }

  @Test
  void flagsAndVariablesTheUserSetAreKeptAndNotRepeated() {
    String userEvents = "{\"enable_kv_cache_events\":true,\"endpoint\":\"tcp://*:5556\",\"topic\":\"kv@mine\"}";
    ModelServicePlan plan = ModelServicePlanner.plan(annotated("""
        model: {name: Qwen/Qwen3-0.6B, image: r/q:1}
        engine:
          args: [--block-size=64, --kv-events-config, '%s', --prefix-caching-hash-algo, sha256_cbor]
          env: [{name: PYTHONHASHSEED, value: "42"}]
        accelerator: {type: nvidia}
        decode: {}
        """.formatted(userEvents), Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    Container vllm = container(deployment(plan, "qwen-decode"), "vllm");
    assertThat(vllm.getArgs()).containsExactly("/models", "--port", "8000", "--served-model-name", MODEL,
        "--block-size=64", "--kv-events-config", userEvents, "--prefix-caching-hash-algo", "sha256_cbor");
    assertThat(vllm.getEnv()).filteredOn(e -> e.getName().equals("PYTHONHASHSEED")).hasSize(1);
    // The user's own events config: no POD_IP nor socket ports are invented for it.
    assertThat(env(vllm)).doesNotContainKey("POD_IP");
    assertThat(ports(vllm)).containsExactly("http:8000");
    assertThat(plan.precisePrefix().ok()).isTrue();
  }

  @Test
  void aBlockSizeOrSeedThatDisagreesWithTheScorerIsKeptAndReported() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated("""
        model: {name: Qwen/Qwen3-0.6B, image: r/q:1}
        engine:
          args: [--block-size, "32"]
          env: [{name: PYTHONHASHSEED, value: "7"}]
        accelerator: {type: nvidia}
        decode: {}
        """, Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    Container vllm = container(deployment(plan, "qwen-decode"), "vllm");
    assertThat(arg(vllm, "--block-size")).isEqualTo("32");
    assertThat(vllm.getArgs()).containsOnlyOnce("--block-size");
    assertThat(env(vllm).get("PYTHONHASHSEED").getValue()).isEqualTo("7");
    assertThat(plan.precisePrefix().ok()).isFalse();
    assertThat(plan.precisePrefix().reason()).isEqualTo("ConflictingSettings");
    assertThat(plan.precisePrefix().message()).isEqualTo("spec.engine: --block-size 32 differs from the scorer's "
        + "blockSize 64: the router skips blocks of another size, so its index stays empty; spec.engine: "
        + "PYTHONHASHSEED=7 differs from the scorer's hashSeed \"42\": the router still indexes the events, but the "
        + "servers' block hashes never equal its own");
  }

  @Test
  void otherHashAlgorithmsDisabledCachingAndASocketOnTheServingPortAreReported() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated("""
        model: {name: Qwen/Qwen3-0.6B, image: r/q:1}
        engine: {args: [--prefix-caching-hash-algo, sha256, --no-enable-prefix-caching], port: 5556}
        accelerator: {type: nvidia}
        decode: {}
        """, Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    assertThat(plan.precisePrefix().message()).contains("--prefix-caching-hash-algo sha256 is not sha256_cbor")
        .contains("--no-enable-prefix-caching turns off the prefix cache")
        .contains("the scorer's podDiscoveryConfig.socketPort 5556 is the server's port http already");
    assertThat(ports(container(deployment(plan, "qwen-decode"), "vllm"))).containsExactly("http:5556",
        "kv-replay:5558");
  }

  @Test
  void aPickerConfigWithoutThePreciseScorerChangesNothingOnTheServers() {
    ModelServicePlan plain = ModelServicePlanner.plan(ms("qwen", AGGREGATED), SETTINGS);
    ModelServicePlan custom = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, "plugins: [{type: queue-scorer}]\n",
        "modelplane.dev/tokenizer", "word")), SETTINGS);
    assertThat(deployment(custom, "qwen-decode")).isEqualTo(deployment(plain, "qwen-decode"));
    assertThat(container(deployment(custom, "qwen-epp"), "epp").getArgs()).noneMatch(a -> a.startsWith("--token"));
    assertThat(find(custom, Service.class, "qwen-epp")).isEqualTo(find(plain, Service.class, "qwen-epp"));
    assertThat(custom.precisePrefix()).isNull();
    assertThat(plain.precisePrefix()).isNull();
    assertThat(find(custom, ConfigMap.class, "qwen-epp-config").getData()).containsOnlyKeys(
        "endpoint-picker-config.yaml");
  }

  @Test
  void anUnreadablePickerConfigKeepsTheGeneratedOneAndIsReported() {
    ModelServicePlan plain = ModelServicePlanner.plan(ms("qwen", AGGREGATED), SETTINGS);
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, """
            plugins:
            - type: precise-prefix-cache-scorer
              parameters: {tokenProcessorConfig: {blockSize: sixteen}}
            """)), SETTINGS);
    assertThat(find(plan, ConfigMap.class, "qwen-epp-config").getData()).containsOnlyKeys("default-plugins.yaml");
    assertThat(deployment(plan, "qwen-decode")).isEqualTo(deployment(plain, "qwen-decode"));
    assertThat(plan.precisePrefix().ok()).isFalse();
    assertThat(plan.precisePrefix().reason()).isEqualTo("InvalidPickerConfig");
    assertThat(plan.precisePrefix().message()).isEqualTo("metadata.annotations[modelplane.dev/endpoint-picker-config]"
        + ": precise-prefix-cache-scorer: parameter 'blockSize' must be a whole number, got \"sixteen\"; the "
        + "generated configuration is used instead");
  }

  @Test
  void theTokenizerComesFromTheConfigMapOrClaimTheAnnotationNames() {
    ModelServicePlan fromConfigMap = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY, "modelplane.dev/tokenizer", "configmap:qwen-tokenizer")),
        SETTINGS);
    Deployment picker = deployment(fromConfigMap, "qwen-epp");
    Container epp = container(picker, "epp");
    assertThat(epp.getArgs()).endsWith("--tokenizer=/tokenizer");
    assertThat(epp.getVolumeMounts()).extracting(m -> m.getName() + ":" + m.getMountPath() + ":" + m.getReadOnly())
        .contains("tokenizer:/tokenizer:true");
    assertThat(picker.getSpec().getTemplate().getSpec().getVolumes())
        .filteredOn(v -> v.getName().equals("tokenizer")).singleElement()
        .satisfies(v -> assertThat(v.getConfigMap().getName()).isEqualTo("qwen-tokenizer"));
    assertThat(fromConfigMap.precisePrefix().message()).contains("tokenizer from configmap:qwen-tokenizer");

    Deployment fromClaim = deployment(ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY, "modelplane.dev/tokenizer", "pvc:models/qwen3/0.6b")),
        SETTINGS), "qwen-epp");
    assertThat(container(fromClaim, "epp").getVolumeMounts()).filteredOn(m -> m.getName().equals("tokenizer"))
        .singleElement().satisfies(m -> assertThat(m.getSubPath()).isEqualTo("qwen3/0.6b"));
    assertThat(fromClaim.getSpec().getTemplate().getSpec().getVolumes())
        .filteredOn(v -> v.getName().equals("tokenizer")).singleElement().satisfies(v -> {
          assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("models");
          assertThat(v.getPersistentVolumeClaim().getReadOnly()).isTrue();
        });

    Container word = container(deployment(ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY, "modelplane.dev/tokenizer", "word")), SETTINGS),
        "qwen-epp"), "epp");
    assertThat(word.getArgs()).endsWith("--tokenizer=word");
    assertThat(word.getVolumeMounts()).noneMatch(m -> m.getName().equals("tokenizer"));
  }

  @Test
  void aTokenizerAnnotationThatCannotBeReadIsReportedAndAnotherPickerImageGetsNoTokenizer() {
    ModelServicePlan bad = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY, "modelplane.dev/tokenizer", "s3://bucket/tok")), SETTINGS);
    assertThat(bad.precisePrefix().ok()).isFalse();
    assertThat(bad.precisePrefix().message()).isEqualTo("metadata.annotations[modelplane.dev/tokenizer]: "
        + "modelplane.dev/tokenizer: \"s3://bucket/tok\" is not configmap:NAME, pvc:CLAIM[/PATH] or word");
    assertThat(container(deployment(bad, "qwen-epp"), "epp").getArgs()).noneMatch(a -> a.startsWith("--tokenizer"));

    ModelServicePlan other = ModelServicePlanner.plan(annotated(AGGREGATED + """
        inferencePool: {endpointPicker: {image: ghcr.io/llm-d/llm-d-inference-scheduler:v0.6.0}}
        """, Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY, "modelplane.dev/tokenizer", "word")), SETTINGS);
    assertThat(container(deployment(other, "qwen-epp"), "epp").getArgs())
        .noneMatch(a -> a.startsWith("--tokenizer"));
    assertThat(other.precisePrefix().message()).contains("is not modelplane's router");
    assertThat(arg(container(deployment(other, "qwen-decode"), "vllm"), "--block-size")).isEqualTo("64");
  }

  @Test
  void aUsersEventsConfigThatCannotMeetThePickerIsReported() {
    ModelServicePlan otherPort = withUserEvents(
        "{\"enable_kv_cache_events\":true,\"endpoint\":\"tcp://*:5557\"}", DISCOVERY);
    assertThat(otherPort.precisePrefix().message()).isEqualTo("spec.engine: --kv-events-config endpoint "
        + "tcp://*:5557 is not the port 5556 the picker reads on each pod (podDiscoveryConfig.socketPort)");
    ModelServicePlan bothBind = withUserEvents(
        "{\"enable_kv_cache_events\":true,\"endpoint\":\"tcp://*:5560\"}", CENTRAL);
    assertThat(bothBind.precisePrefix().message()).contains("--kv-events-config endpoint tcp://*:5560 binds, but "
        + "the picker binds zmqEndpoint too");
    ModelServicePlan off = withUserEvents("{\"enable_kv_cache_events\":false}", DISCOVERY);
    assertThat(off.precisePrefix().message()).contains("--kv-events-config does not publish");
    ModelServicePlan broken = withUserEvents("{\"nope\":1}", DISCOVERY);
    assertThat(broken.precisePrefix().message()).startsWith("spec.engine: --kv-events-config: unknown key \"nope\"");
  }

  private static List<Integer> ports(NetworkPolicy policy, int rule) {
    return policy.getSpec().getIngress().get(rule).getPorts().stream().map(p -> p.getPort().getIntVal()).toList();
  }

  @Test
  void discoveryModeAdmitsOnlyThePickerToTheServersEventSocketsWhichNoServiceCarries() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED,
        Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    NetworkPolicy policy = find(plan, NetworkPolicy.class, "qwen-epp-kv-events");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsEntry("llm-d.ai/inferenceServing", "true")
        .containsEntry("llm-d.ai/model", "qwen").doesNotContainKey("app.kubernetes.io/component");
    assertThat(policy.getSpec().getIngress().getFirst().getFrom()).singleElement().satisfies(peer -> assertThat(
        peer.getPodSelector().getMatchLabels()).containsEntry("app.kubernetes.io/name", "qwen-epp")
        .containsEntry("app.kubernetes.io/component", "epp"));
    assertThat(ports(policy, 0)).containsExactly(5556, 5558);
    assertThat(plan.unwanted()).noneMatch(r -> r.kind().equals("NetworkPolicy"));
    assertThat(plan.owned()).filteredOn(o -> o instanceof Service).extracting(o -> o.getMetadata().getName())
        .containsExactly("qwen-epp");
  }

  @Test
  void centralModeAdmitsOnlyThePoolsServersToThePickersEventsPort() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED,
        Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, CENTRAL)), SETTINGS);
    NetworkPolicy policy = find(plan, NetworkPolicy.class, "qwen-epp-kv-events");
    assertThat(policy.getSpec().getPodSelector().getMatchLabels()).containsEntry("app.kubernetes.io/name", "qwen-epp");
    assertThat(policy.getSpec().getIngress().getFirst().getFrom().getFirst().getPodSelector().getMatchLabels())
        .containsEntry("llm-d.ai/model", "qwen");
    assertThat(ports(policy, 0)).containsExactly(5560);
  }

  private static NetworkPolicy userPolicy(String name, Map<String, String> selects) {
    return new io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder().withNewMetadata().withName(name)
        .withNamespace("team").endMetadata().withNewSpec().withNewPodSelector().withMatchLabels(selects)
        .endPodSelector().endSpec().build();
  }

  @Test
  void inANamespaceThatDeniesIngressThePolicyOpensOnlyTheEventsPorts() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED,
        Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    assertThat(find(PrecisePrefixBuilder.settle(plan, List.of()), NetworkPolicy.class, "qwen-epp-kv-events")
        .getSpec().getIngress()).hasSize(4);
    ModelServicePlan denied = PrecisePrefixBuilder.settle(plan, List.of(userPolicy("default-deny", Map.of())));
    NetworkPolicy policy = find(denied, NetworkPolicy.class, "qwen-epp-kv-events");
    assertThat(policy.getSpec().getIngress()).hasSize(1);
    assertThat(ports(policy, 0)).containsExactly(5556, 5558);
    assertThat(denied.precisePrefix()).isEqualTo(plan.precisePrefix());
    assertThat(denied.owned()).hasSameSizeAs(plan.owned());
  }

  @Test
  void aPolicySelectingOnlyTheDecodePodsIsNotWidenedAndThePrefillPodsAreReported() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(PREFILL_DECODE,
        Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    ModelServicePlan settled = PrecisePrefixBuilder.settle(plan,
        List.of(userPolicy("decode-only", Map.of("llm-d.ai/role", "decode"))));
    assertThat(find(settled, NetworkPolicy.class, "qwen-epp-kv-events").getSpec().getIngress()).hasSize(1);
    assertThat(settled.precisePrefix().ok()).isFalse();
    assertThat(settled.precisePrefix().reason()).isEqualTo(PrecisePrefixStatus.CONFLICT);
    assertThat(settled.precisePrefix().message()).startsWith("NetworkPolicy qwen-epp-kv-events: the namespace's "
        + "NetworkPolicies decode-only select some of the pods").contains("llm-d.ai/role=prefill");
  }

  @Test
  void aSocketPortOnTheServingPortIsLeftOutOfThePolicyAndTheOptOutRendersNone() {
    ModelServicePlan colliding = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY.replace("socketPort: 5556", "socketPort: 8000"))), SETTINGS);
    assertThat(ports(find(colliding, NetworkPolicy.class, "qwen-epp-kv-events"), 0)).containsExactly(5558);
    assertThat(colliding.precisePrefix().message())
        .contains("the scorer's podDiscoveryConfig.socketPort 8000 is the server's port");

    ModelServicePlan optedOut = PrecisePrefixBuilder.settle(ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY, KvEventsPolicy.OPT_OUT_ANNOTATION, "none")), SETTINGS),
        List.of());
    assertThat(has(optedOut, "NetworkPolicy", "qwen-epp-kv-events")).isFalse();
    assertThat(optedOut.unwanted()).extracting(ModelServicePlan.ObjectRef::name)
        .contains("qwen-epp-kv-events", "qwen-epp-kv-events-egress");
    assertThat(optedOut.precisePrefix().ok()).isTrue();
    ModelServicePlan misspelt = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY, KvEventsPolicy.OPT_OUT_ANNOTATION, "off")), SETTINGS);
    assertThat(has(misspelt, "NetworkPolicy", "qwen-epp-kv-events")).isTrue();
    assertThat(misspelt.precisePrefix().message()).contains("\"off\" is not a value it takes");
  }

  @Test
  void withoutThePreciseScorerThePolicyIsUnwanted() {
    ModelServicePlan plain = ModelServicePlanner.plan(ms("qwen", AGGREGATED), SETTINGS);
    assertThat(has(plain, "NetworkPolicy", "qwen-epp-kv-events")).isFalse();
    assertThat(plain.unwanted()).contains(new ModelServicePlan.ObjectRef("networking.k8s.io/v1", "NetworkPolicy",
        "qwen-epp-kv-events", false));
  }

  @Test
  void aCentralPortThePickerAlreadyHasIsReportedAndNotRendered() {
    ModelServicePlan plain = ModelServicePlanner.plan(ms("qwen", AGGREGATED), SETTINGS);
    ModelServicePlan plan = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION,
        CENTRAL.replace("tcp://*:5560", "tcp://*:9002"))), SETTINGS);
    assertThat(plan.precisePrefix().ok()).isFalse();
    assertThat(plan.precisePrefix().reason()).isEqualTo("ConflictingSettings");
    assertThat(plan.precisePrefix().message()).isEqualTo("metadata.annotations[modelplane.dev/endpoint-picker-config]: "
        + "kvEventsConfig.zmqEndpoint's port 9002 is the picker's port grpc-ext-proc already, which its Service "
        + "cannot carry twice; no events port is rendered: choose another port");
    assertThat(find(plan, Service.class, "qwen-epp")).isEqualTo(find(plain, Service.class, "qwen-epp"));
    assertThat(ports(container(deployment(plan, "qwen-epp"), "epp"))).noneMatch(p -> p.startsWith("kv-events"));
    assertThat(has(plan, "NetworkPolicy", "qwen-epp-kv-events")).isFalse();
  }

  @Test
  void topicsTheRouterDropsOrCannotTieToAnEndpointAreReported() {
    ModelServicePlan vllmsDefault = withUserEvents(
        "{\"enable_kv_cache_events\":true,\"endpoint\":\"tcp://*:5556\"}", DISCOVERY);
    assertThat(vllmsDefault.precisePrefix().message()).isEqualTo("spec.engine: --kv-events-config topic \"\" does "
        + "not start with the scorer's kvEventsConfig.topicFilter \"kv@\", so the router drops its events");
    ModelServicePlan noEndpoint = withUserEvents("{\"enable_kv_cache_events\":"
        + "true,\"endpoint\":\"tcp://qwen-epp.team.svc:5560\",\"topic\":\"kv@mine\"}", CENTRAL);
    assertThat(noEndpoint.precisePrefix().message()).isEqualTo("spec.engine: --kv-events-config topic \"kv@mine\" "
        + "names no endpoint: the picker binds one socket for every server and tells them apart by topics of the "
        + "form kv@<pod ip>:<port>@<model>");
    ModelServicePlan filtered = ModelServicePlanner.plan(annotated(AGGREGATED, Map.of(
        PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY.replace("{podDiscoveryConfig:",
            "{topicFilter: \"events@\", podDiscoveryConfig:"))), SETTINGS);
    assertThat(filtered.precisePrefix().reason()).isEqualTo("ConflictingSettings");
    assertThat(filtered.precisePrefix().message()).isEqualTo("spec.engine: the scorer's kvEventsConfig.topicFilter "
        + "\"events@\" does not match the topics kv@<pod>@<model> the servers publish, so the router drops their "
        + "events");
  }

  @Test
  void dataParallelRanksPastTheFirstPublishWhereNobodyReadsAndAreReported() {
    ModelServicePlan plan = ModelServicePlanner.plan(annotated("""
        model: {name: Qwen/Qwen3-0.6B, image: r/q:1}
        engine: {}
        accelerator: {type: nvidia}
        decode: {parallelism: {data: 2, dataLocal: 2}}
        """, Map.of(PrecisePrefixStatus.CONFIG_ANNOTATION, DISCOVERY)), SETTINGS);
    assertThat(plan.precisePrefix().reason()).isEqualTo("ConflictingSettings");
    assertThat(plan.precisePrefix().message()).isEqualTo("spec.engine: 2 data-parallel ranks: vLLM publishes rank "
        + "r's events on the events port plus r, but the picker reads one port of each pod (or binds one port), so "
        + "the events of every rank but the first are lost; serve one rank per pod");
  }
}
