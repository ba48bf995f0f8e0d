package dev.modelplane.router.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.modelplane.api.gie.v1.AppProtocol;
import dev.modelplane.api.gie.v1.EndpointPickerRef;
import dev.modelplane.api.gie.v1.FailureMode;
import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.api.gie.v1.InferencePoolSpec;
import dev.modelplane.api.gie.v1.Port;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Discovery against a real kube-apiserver: pools, objectives and pods. */
@WithControlPlane
class KubernetesDiscoveryTest {
  private static final Duration WAIT = Duration.ofSeconds(30);

  private static void pool(KubernetesClient client, String name, String app, String ports) {
    client.resource(Serialization.unmarshal("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata:
          name: %s
        spec:
          selector:
            matchLabels:
              app: %s
          targetPorts: %s
          endpointPickerRef:
            name: epp
            port: {number: 9002}
            failureMode: FailOpen
        """.formatted(name, app, ports), GenericKubernetesResource.class)).create();
  }

  private static void objective(KubernetesClient client, String name, String pool, int priority) {
    client.resource(Serialization.unmarshal("""
        apiVersion: inference.networking.x-k8s.io/v1alpha2
        kind: InferenceObjective
        metadata:
          name: %s
        spec:
          priority: %d
          poolRef:
            name: %s
        """.formatted(name, priority, pool), GenericKubernetesResource.class)).create();
  }

  private static void pod(KubernetesClient client, String name, Map<String, String> labels, String ip, boolean ready,
      Map<String, String> annotations) {
    Pod pod = client.pods().resource(new PodBuilder().withNewMetadata().withName(name).withLabels(labels)
        .withAnnotations(annotations).endMetadata()
        .withNewSpec().addNewContainer().withName("server").withImage("vllm/vllm-openai").endContainer().endSpec()
        .build()).create();
    pod.setStatus(new io.fabric8.kubernetes.api.model.PodStatusBuilder().withPhase("Running").withPodIP(ip)
        .addNewCondition().withType("Ready").withStatus(ready ? "True" : "False").endCondition().build());
    client.pods().resource(pod).updateStatus();
  }

  private static List<String> names(EndpointPool pool) {
    return pool.endpoints().stream().map(s -> s.id().name() + "@" + s.endpoint().hostPort()).toList();
  }

  @Test
  void readyPodsTimesTargetPortsBecomeEndpoints(KubeTest kube) {
    KubernetesClient client = kube.client();
    String ns = kube.namespace();
    // No controller-manager here: create the service account pods are admitted against.
    client.serviceAccounts().resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder().withNewMetadata()
        .withName("default").endMetadata().build()).create();
    pool(client, "llama", "vllm", "[{number: 8000}, {number: 8001}]");
    pool(client, "qwen", "sglang", "[{number: 30000}]");
    pod(client, "vllm-a", Map.of("app", "vllm"), "127.0.1.1", true, Map.of());
    pod(client, "vllm-b", Map.of("app", "vllm"), "127.0.1.2", true,
        Map.of(KubernetesDiscovery.ACTIVE_PORTS_ANNOTATION, "8000"));
    pod(client, "vllm-not-ready", Map.of("app", "vllm"), "127.0.1.3", false, Map.of());
    pod(client, "sglang-a", Map.of("app", "sglang"), "127.0.2.1", true, Map.of());
    objective(client, "batch", "llama", -1);
    objective(client, "chat", "llama", 10);

    PoolRegistry registry = new PoolRegistry();
    PoolKey llama = new PoolKey(ns, "llama");
    PoolKey qwen = new PoolKey(ns, "qwen");
    try (KubernetesDiscovery discovery = new KubernetesDiscovery(client, registry,
        new KubernetesDiscovery.Selection(List.of(llama, qwen), null)).start()) {
      await().atMost(WAIT).until(discovery::hasSynced);
      EndpointPool pool = registry.get(llama);
      await().atMost(WAIT).untilAsserted(() -> assertThat(names(pool)).containsExactly(
          "vllm-a-rank-0@127.0.1.1:8000", "vllm-a-rank-1@127.0.1.1:8001", "vllm-b-rank-0@127.0.1.2:8000"));
      await().atMost(WAIT).untilAsserted(() -> assertThat(names(registry.get(qwen)))
          .containsExactly("sglang-a-rank-0@127.0.2.1:30000"));
      assertThat(pool.failureMode()).isEqualTo(FailureMode.FailOpen);
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(pool.priorityOf("batch")).isEqualTo(-1);
        assertThat(pool.priorityOf("chat")).isEqualTo(10);
      });
      assertThat(registry.resolve(null).key()).isEqualTo(llama);
      assertThat(registry.resolve("qwen").key()).isEqualTo(qwen);

      client.pods().withName("vllm-a").withGracePeriod(0).delete();
      await().atMost(WAIT).untilAsserted(() -> assertThat(names(pool))
          .containsExactly("vllm-b-rank-0@127.0.1.2:8000"));
      client.pods().withName("vllm-b").edit(p -> {
        p.getMetadata().getLabels().put("app", "retired");
        return p;
      });
      await().atMost(WAIT).untilAsserted(() -> assertThat(pool.endpoints()).isEmpty());
      client.resources(dev.modelplane.api.gie.v1alpha2.InferenceObjective.class).withName("batch").delete();
      await().atMost(WAIT).untilAsserted(() -> assertThat(pool.priorityOf("batch")).isZero());
    }
  }

  @Test
  void aPoolWithoutAnEndpointPickerIsServedInProcessAndARemovedPickerTakesItsFailureModeAlong(KubeTest kube) {
    KubernetesClient client = kube.client();
    client.serviceAccounts().resource(new io.fabric8.kubernetes.api.model.ServiceAccountBuilder().withNewMetadata()
        .withName("default").endMetadata().build()).create();
    client.resource(Serialization.unmarshal("""
        apiVersion: inference.networking.k8s.io/v1
        kind: InferencePool
        metadata:
          name: self-picked
          annotations: {modelplane.dev/served-models: "llama-8b, sql-lora,"}
        spec:
          selector:
            matchLabels:
              app: llama
          targetPorts: [{number: 8080}]
        """, GenericKubernetesResource.class)).create();
    pod(client, "llama-a", Map.of("app", "llama"), "127.0.3.1", true, Map.of());

    PoolRegistry registry = new PoolRegistry();
    PoolKey key = new PoolKey(kube.namespace(), "self-picked");
    try (KubernetesDiscovery discovery = new KubernetesDiscovery(client, registry,
        new KubernetesDiscovery.Selection(List.of(key), null)).start()) {
      await().atMost(WAIT).until(discovery::hasSynced);
      EndpointPool pool = registry.get(key);
      await().atMost(WAIT).untilAsserted(() -> assertThat(names(pool))
          .containsExactly("llama-a-rank-0@127.0.3.1:8080"));
      assertThat(pool.failureMode()).isEqualTo(FailureMode.FailClose);
      assertThat(pool.declaredModels()).containsExactlyInAnyOrder("llama-8b", "sql-lora");

      var pools = client.resources(InferencePool.class);
      pools.withName("self-picked").edit(p -> withPicker(p,
          new EndpointPickerRef(null, null, "epp", new Port(9002), FailureMode.FailOpen)));
      await().atMost(WAIT).untilAsserted(() -> assertThat(pool.failureMode()).isEqualTo(FailureMode.FailOpen));
      pools.withName("self-picked").edit(p -> withPicker(p, null));
      await().atMost(WAIT).untilAsserted(() -> assertThat(pool.failureMode()).isEqualTo(FailureMode.FailClose));
      assertThat(pool.appProtocol()).isEqualTo(AppProtocol.HTTP);
      pools.withName("self-picked").edit(p -> {
        p.setSpec(new InferencePoolSpec(p.getSpec().selector(), p.getSpec().targetPorts(), AppProtocol.H2C, null));
        return p;
      });
      await().atMost(WAIT).untilAsserted(() -> assertThat(pool.appProtocol()).isEqualTo(AppProtocol.H2C));
      assertThat(names(pool)).containsExactly("llama-a-rank-0@127.0.3.1:8080");
    }
  }

  @Test
  void llmdPoliciesWinOverTheLegacyGroupsPerPoolAndRewritesReachThePool(KubeTest kube) {
    KubernetesClient client = kube.client();
    String ns = kube.namespace();
    pool(client, "both", "both", "[{number: 8000}]");
    pool(client, "legacy", "legacy", "[{number: 8000}]");
    objective(client, "batch", "both", -1);
    objective(client, "chat", "legacy", 5);
    apply(client, """
        apiVersion: llm-d.ai/v1alpha2
        kind: InferenceObjective
        metadata:
          name: interactive
        spec:
          priority: 50
          poolRef: {name: both}
        """);
    apply(client, """
        apiVersion: llm-d.ai/v1alpha2
        kind: InferenceModelRewrite
        metadata:
          name: canary
        spec:
          poolRef: {name: both}
          rules:
          - matches: [{model: {value: chat}}]
            targets: [{modelRewrite: chat-v2, weight: 1}]
        """);
    apply(client, """
        apiVersion: inference.networking.x-k8s.io/v1alpha2
        kind: InferenceModelRewrite
        metadata:
          name: legacy-rename
        spec:
          poolRef: {name: legacy}
          rules:
          - targets: [{modelRewrite: everything-to-one}]
        """);

    PoolRegistry registry = new PoolRegistry();
    PoolKey both = new PoolKey(ns, "both");
    PoolKey legacy = new PoolKey(ns, "legacy");
    try (KubernetesDiscovery discovery = new KubernetesDiscovery(client, registry,
        new KubernetesDiscovery.Selection(List.of(both, legacy), null)).start()) {
      await().atMost(WAIT).until(discovery::hasSynced);
      EndpointPool bothPool = registry.get(both);
      EndpointPool legacyPool = registry.get(legacy);
      var random = new java.util.SplittableRandom(1);
      await().atMost(WAIT).untilAsserted(() -> {
        // The llm-d.ai objective names the pool, so its legacy objective is ignored; the other pool keeps its own.
        assertThat(bothPool.objectives()).containsExactly(Map.entry("interactive", 50));
        assertThat(legacyPool.objectives()).containsExactly(Map.entry("chat", 5));
        assertThat(bothPool.rewrites().rewrite("chat", random)).isEqualTo("chat-v2");
        assertThat(legacyPool.rewrites().rewrite("anything", random)).isEqualTo("everything-to-one");
      });
      // Each object of a pool this router serves says whether it is applied.
      await().atMost(WAIT).untilAsserted(() -> {
        assertThat(accepted(client, dev.modelplane.api.llmd.v1alpha2.InferenceObjective.class, "interactive"))
            .isEqualTo("True/Accepted/applied to InferencePool both");
        assertThat(accepted(client, dev.modelplane.api.gie.v1alpha2.InferenceObjective.class, "batch"))
            .isEqualTo("Unknown/Pending/ignored: InferenceObjectives of llm-d.ai name InferencePool both and take"
                + " precedence");
        assertThat(accepted(client, dev.modelplane.api.gie.v1alpha2.InferenceObjective.class, "chat"))
            .isEqualTo("True/Accepted/applied to InferencePool legacy");
        assertThat(accepted(client, dev.modelplane.api.llmd.v1alpha2.InferenceModelRewrite.class, "canary"))
            .isEqualTo("True/Accepted/applied to InferencePool both");
      });
      client.resources(dev.modelplane.api.llmd.v1alpha2.InferenceObjective.class).withName("interactive").delete();
      await().atMost(WAIT).untilAsserted(() -> assertThat(bothPool.objectives())
          .containsExactly(Map.entry("batch", -1)));
      await().atMost(WAIT).untilAsserted(() -> assertThat(
          accepted(client, dev.modelplane.api.gie.v1alpha2.InferenceObjective.class, "batch"))
          .isEqualTo("True/Accepted/applied to InferencePool both"));
      client.resources(dev.modelplane.api.llmd.v1alpha2.InferenceModelRewrite.class).withName("canary").delete();
      await().atMost(WAIT).untilAsserted(() -> assertThat(bothPool.rewrites().isEmpty()).isTrue());
    }
  }

  @Test
  void aPolicyKindTheRouterMayNotReadIsIgnoredRatherThanKeepingDiscoveryFromSyncing(KubeTest kube) {
    KubernetesClient admin = kube.client();
    String ns = kube.namespace();
    pool(admin, "restricted", "restricted", "[{number: 8000}]");
    objective(admin, "batch", "restricted", -3);
    apply(admin, """
        apiVersion: llm-d.ai/v1alpha2
        kind: InferenceObjective
        metadata:
          name: unreadable
        spec:
          priority: 9
          poolRef: {name: restricted}
        """);
    // Pods, pools and the legacy objectives only: an identity granted before the other kinds existed.
    apply(admin, """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: Role
        metadata:
          name: old-router
        rules:
        - apiGroups: [""]
          resources: [pods]
          verbs: [list, watch]
        - apiGroups: [inference.networking.k8s.io]
          resources: [inferencepools]
          verbs: [list, watch]
        - apiGroups: [inference.networking.x-k8s.io]
          resources: [inferenceobjectives]
          verbs: [list, watch]
        """);
    apply(admin, """
        apiVersion: rbac.authorization.k8s.io/v1
        kind: RoleBinding
        metadata:
          name: old-router
        roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: old-router}
        subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: old-router}]
        """);
    PoolRegistry registry = new PoolRegistry();
    PoolKey key = new PoolKey(ns, "restricted");
    try (KubernetesClient restricted = new KubernetesClientBuilder().withConfig(
        new ConfigBuilder(admin.getConfiguration()).withImpersonateUsername("old-router")
            .build()).build();
        KubernetesDiscovery discovery = new KubernetesDiscovery(restricted, registry,
            new KubernetesDiscovery.Selection(List.of(key), null))) {
      // Nor may it read Services and EndpointSlices: the pool's endpointPickerRef is ignored (picked in-process).
      PickerEndpoints pickers = new PickerEndpoints(restricted, address -> false);
      discovery.followPickerRefs(pickers).start();
      await().atMost(WAIT).until(discovery::hasSynced);
      await().atMost(WAIT).untilAsserted(() -> assertThat(registry.get(key).objectives())
          .containsExactly(Map.entry("batch", -3)));
      assertThat(pickers.pickers()).isEmpty();
      assertThat(pickers.picker(key)).isNull();
    }
  }

  /** The object's {@code Accepted} condition as status/reason/message, or null. */
  private static String accepted(KubernetesClient client, Class<? extends CustomResource<?, ?>> type, String name) {
    GenericKubernetesResource obj = client.genericKubernetesResources(HasMetadata.getApiVersion(type),
        HasMetadata.getKind(type)).withName(name).get();
    Object status = obj.getAdditionalProperties().get("status");
    if (!(status instanceof Map<?, ?> map) || !(map.get("conditions") instanceof List<?> conditions)) {
      return null;
    }
    for (Object c : conditions) {
      Map<?, ?> condition = (Map<?, ?>) c;
      if ("Accepted".equals(condition.get("type"))) {
        assertThat(condition.get("observedGeneration")).isEqualTo(obj.getMetadata().getGeneration().intValue());
        return condition.get("status") + "/" + condition.get("reason") + "/" + condition.get("message");
      }
    }
    return null;
  }

  private static void apply(KubernetesClient client, String yaml) {
    client.resource(Serialization.unmarshal(yaml, GenericKubernetesResource.class)).create();
  }

  private static InferencePool withPicker(InferencePool pool, EndpointPickerRef picker) {
    InferencePoolSpec spec = pool.getSpec();
    pool.setSpec(new InferencePoolSpec(spec.selector(), spec.targetPorts(), spec.appProtocol(), picker));
    return pool;
  }
}
