package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.Edits;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.llmkube.model.PrefetchJobBuilder;
import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.render.ManifestRenderer;
import dev.modelplane.operator.scheduling.PriorityClassInstaller;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.SeccompProfileBuilder;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every pod the operator generates passes the "restricted" Pod Security Standard, as the real kube-apiserver's
 * PodSecurity admission enforces it on a namespace labelled {@code pod-security.kubernetes.io/enforce=restricted}:
 * the pod templates of everything {@code render} makes of the samples and shipped runtimes (plus a multi-node, a
 * serverless and a claim-stored OME service, so every workload kind is there), the Models' prefetch Jobs and the
 * operator's own Deployment are created as Pods in a server-side dry run. The only pods refused are those whose
 * user's manifests ask for the host (an OME model on the node's disk, a runtime with {@code hostNetwork}); each of
 * them is admitted once exactly those fields are taken out, so nothing else in it breaks the standard.
 */
@WithControlPlane(ControlPlane.Component.CONTROLLER_MANAGER)
class RestrictedPodSecurityIT {
  private static final KubernetesSerialization JSON = new KubernetesSerialization();
  /** Fields of a Knative revision template's spec that are not pod fields. */
  private static final List<String> KNATIVE_FIELDS = List.of("containerConcurrency", "timeoutSeconds",
      "responseStartTimeoutSeconds", "idleTimeoutSeconds");

  private KubernetesClient client;
  private String ns;
  private final List<String> runtimeClasses = new ArrayList<>();

  @AfterEach
  void removeRuntimeClasses() {
    runtimeClasses.forEach(name -> client.resources(RuntimeClass.class).withName(name).delete());
  }

  @BeforeEach
  void restrictTheNamespace(KubeTest test) {
    client = test.client();
    ns = test.namespace();
    Edits.onLatest(client.namespaces().withName(ns), n -> {
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce", "restricted");
      n.getMetadata().getLabels().put("pod-security.kubernetes.io/enforce-version", "latest");
      return n;
    });
    PriorityClassInstaller.install(test.controlPlane().client());
  }

  @Test
  void theNamespaceRefusesAPodWithoutRunAsNonRoot() {
    Pod plain = new PodBuilder().withNewMetadata().withName("plain").endMetadata().withNewSpec()
        .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build();
    assertThatThrownBy(() -> client.pods().resource(plain).dryRun().create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("violates PodSecurity \"restricted:latest\"")
        .hasMessageContaining("runAsNonRoot != true");
  }

  @Test
  void everyGeneratedPodIsAdmittedOrOnlyRefusedForWhatItsManifestAsksOfTheHost() throws IOException {
    List<String> messages = new ArrayList<>();
    List<HasMetadata> manifests = ManifestRenderer.parse(manifests() + extraOme(ns), messages);
    OperatorSettings settings = OperatorSettings.defaults();
    ManifestRenderer.Result result = ManifestRenderer.render(manifests, settings, ns);
    List<Template> templates = new ArrayList<>();
    for (HasMetadata object : result.objects()) {
      collect(object.getKind() + " " + object.getMetadata().getName(), JSON.convertValue(object, JsonNode.class),
          templates);
    }
    for (HasMetadata manifest : manifests) {
      if (manifest instanceof Model model) {
        ModelLayout layout = ModelLayout.of(model, settings.huggingFaceEndpoint());
        if (layout.staging() == ModelLayout.Staging.DOWNLOAD) {
          collect("prefetch Job of Model " + model.getMetadata().getName(), JSON.convertValue(
              PrefetchJobBuilder.build(model, layout, settings, null), JsonNode.class), templates);
        }
      }
    }
    Path operatorDeployment = repo().resolve("deploy/operator/deployment.yaml");
    collect("deploy/operator/deployment.yaml", JSON.unmarshal(Files.readString(operatorDeployment), JsonNode.class),
        templates);

    Map<String, Integer> admittedPerKind = new TreeMap<>();
    List<String> exceptions = new ArrayList<>();
    List<String> refused = new ArrayList<>();
    int n = 0;
    for (Template t : templates) {
      Pod pod = pod("p" + n++, t.template());
      if (t.origin().startsWith("Service ")) {
        // A Knative revision: only the fields Knative's webhook takes by default; the rest is what Knative's
        // secure-pod-defaults (enabled) adds to the pods it makes.
        assertThat(pod.getSpec().getSecurityContext()).as(t.origin()).isNull();
        pod = withKnativeSecurePodDefaults(pod);
      }
      String problem = admit(pod);
      if (problem == null) {
        admittedPerKind.merge(t.origin().split(" ")[0], 1, Integer::sum);
        continue;
      }
      List<String> hostFields = hostFields(pod.getSpec());
      String without = hostFields.isEmpty() ? problem : admit(withoutHostFields(pod));
      if (hostFields.isEmpty() || without != null) {
        refused.add(t.origin() + ": " + (without == null ? problem : without));
      } else {
        exceptions.add(t.origin() + " " + hostFields);
      }
    }
    System.out.printf("restricted PodSecurity: %d pod templates, admitted %s, refused only for the host fields "
        + "their manifests ask for: %s%nrender: %s%n", templates.size(), admittedPerKind, exceptions,
        result.messages());
    assertThat(refused).as("pods refused for anything but the host fields their manifests ask for").isEmpty();
    assertThat(admittedPerKind).containsKeys("Deployment", "LeaderWorkerSet", "Service", "prefetch",
        "deploy/operator/deployment.yaml");
    assertThat(admittedPerKind.values().stream().mapToInt(Integer::intValue).sum()).isGreaterThan(20);
    // Only OME pods on node-stored models or with a hostNetwork runtime; no LLMKube or ModelService pod.
    assertThat(exceptions).isNotEmpty().allSatisfy(e -> assertThat(e).matches(
        "(Deployment|LeaderWorkerSet|Service) .* \\[(hostPath volume [a-z0-9-]+|hostNetwork)(, (hostPath volume "
            + "[a-z0-9-]+|hostNetwork))*]"));
  }

  @Test
  void theUsersSecurityContextIsMergedWithTheDefaultsAndTheOptOutIsNotRestricted() {
    String model = """
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: Model
        metadata: {name: tiny}
        spec: {source: "https://example.com/tiny-Q4_K_M.gguf", format: gguf}
        """;
    String merged = """
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: merged}
        spec:
          modelRef: tiny
          podSecurityContext: {runAsUser: 2000}
          securityContext: {readOnlyRootFilesystem: true, capabilities: {add: [NET_BIND_SERVICE]}}
        ---
        apiVersion: inference.llmkube.dev/v1alpha1
        kind: InferenceService
        metadata: {name: root}
        spec:
          modelRef: tiny
          podSecurityContext: {runAsNonRoot: false}
        """;
    ManifestRenderer.Result result = ManifestRenderer.render(ManifestRenderer.parse(model + merged,
        new ArrayList<>()), OperatorSettings.defaults(), ns);
    Deployment mergedDeployment = deployment(result, "merged");
    Pod created = client.pods().resource(pod("merged", JSON.convertValue(mergedDeployment.getSpec().getTemplate(),
        JsonNode.class))).dryRun().create();
    assertThat(created.getSpec().getSecurityContext().getRunAsUser()).isEqualTo(2000L);
    assertThat(created.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(created.getSpec().getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    var server = created.getSpec().getContainers().getFirst().getSecurityContext();
    assertThat(server.getReadOnlyRootFilesystem()).isTrue();
    assertThat(server.getAllowPrivilegeEscalation()).isFalse();
    assertThat(server.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(server.getCapabilities().getAdd()).containsExactly("NET_BIND_SERVICE");

    Pod root = pod("root", JSON.convertValue(deployment(result, "root").getSpec().getTemplate(), JsonNode.class));
    assertThat(admit(root)).contains("violates PodSecurity").contains("runAsNonRoot != true");
  }

  @Test
  void theControllerManagerCreatesTheGeneratedDeploymentsPods() throws IOException {
    ManifestRenderer.Result result = ManifestRenderer.render(ManifestRenderer.parse(Files.readString(
        repo().resolve("deploy/samples/quickstart.yaml")), new ArrayList<>()), OperatorSettings.defaults(), ns);
    Deployment deployment = result.objects().stream().filter(Deployment.class::isInstance)
        .map(Deployment.class::cast).findFirst().orElseThrow();
    deployment.getMetadata().setNamespace(ns);
    deployment.getSpec().setReplicas(2);
    client.resource(deployment).create();
    // The same Deployment without runAsNonRoot: its ReplicaSet is refused every pod, so the check is live.
    Deployment loose = JSON.clone(deployment);
    loose.getMetadata().setName("loose");
    loose.getSpec().getSelector().getMatchLabels().put("loose", "true");
    loose.getSpec().getTemplate().getMetadata().getLabels().put("loose", "true");
    loose.getSpec().getTemplate().getSpec().getSecurityContext().setRunAsNonRoot(null);
    loose.getSpec().getTemplate().getSpec().getContainers().forEach(c -> c.getSecurityContext().setRunAsNonRoot(null));
    loose.getSpec().getTemplate().getSpec().getInitContainers()
        .forEach(c -> c.getSecurityContext().setRunAsNonRoot(null));
    client.resource(loose).create();
    await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
      List<Pod> pods = client.pods().withLabels(deployment.getSpec().getSelector().getMatchLabels()).list()
          .getItems().stream().filter(p -> p.getMetadata().getLabels().get("loose") == null).toList();
      assertThat(pods).hasSize(2);
      assertThat(pods).allSatisfy(p -> assertThat(p.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue());
      var conditions = client.apps().replicaSets().withLabel("loose", "true").list().getItems().stream()
          .flatMap(rs -> rs.getStatus() == null || rs.getStatus().getConditions() == null ? Stream.empty()
              : rs.getStatus().getConditions().stream()).toList();
      assertThat(conditions).anySatisfy(c -> {
        assertThat(c.getType()).isEqualTo("ReplicaFailure");
        assertThat(c.getMessage()).contains("violates PodSecurity");
      });
    });
    assertThat(client.pods().withLabel("loose", "true").list().getItems()).isEmpty();
  }

  @Test
  void theRunningOperatorsServingPodsAreCreatedInTheRestrictedNamespace(KubeTest test) {
    try (OperatorHarness harness = OperatorHarness.start(test.controlPlane())) {
      client.resource(OperatorHarness.model("llama", "source: test-org/llama-gguf")).create();
      client.resource(OperatorHarness.isvc("chat", """
          modelRef: llama
          runtime: vllm
          replicas: 2
          """)).create();
      await().atMost(Duration.ofSeconds(90)).untilAsserted(() -> {
        List<Pod> pods = client.pods().withLabel("inference.llmkube.dev/service", "chat").list().getItems();
        assertThat(pods).hasSize(2).allSatisfy(p -> {
          assertThat(p.getSpec().getSecurityContext().getRunAsNonRoot()).isTrue();
          assertThat(p.getSpec().getSecurityContext().getRunAsUser()).isEqualTo(1000L);
          assertThat(p.getSpec().getContainers().getFirst().getSecurityContext().getCapabilities().getDrop())
              .containsExactly("ALL");
        });
      });
    }
  }

  /** Null when the API server admits the pod (dry run), else its refusal. */
  private String admit(Pod pod) {
    if (pod.getSpec().getServiceAccountName() != null
        && client.serviceAccounts().withName(pod.getSpec().getServiceAccountName()).get() == null) {
      client.serviceAccounts().resource(new ServiceAccountBuilder().withNewMetadata()
          .withName(pod.getSpec().getServiceAccountName()).endMetadata().build()).create();
    }
    String runtimeClass = pod.getSpec().getRuntimeClassName();
    if (runtimeClass != null && client.resources(RuntimeClass.class).withName(runtimeClass).get() == null) {
      client.resources(RuntimeClass.class).resource(new RuntimeClassBuilder().withNewMetadata().withName(runtimeClass)
          .endMetadata().withHandler(runtimeClass).build()).create();
      runtimeClasses.add(runtimeClass);
    }
    try {
      client.pods().resource(pod).dryRun().create();
      return null;
    } catch (KubernetesClientException e) {
      return e.getMessage();
    }
  }

  /** The fields through which the pod reaches into its node. */
  private static List<String> hostFields(PodSpec spec) {
    List<String> fields = new ArrayList<>();
    if (spec.getVolumes() != null) {
      spec.getVolumes().stream().filter(v -> v.getHostPath() != null)
          .forEach(v -> fields.add("hostPath volume " + v.getName()));
    }
    if (Boolean.TRUE.equals(spec.getHostNetwork())) {
      fields.add("hostNetwork");
    }
    return fields;
  }

  /** What Knative Serving's {@code secure-pod-defaults: enabled} sets on each container it did not get a value for. */
  private static Pod withKnativeSecurePodDefaults(Pod pod) {
    Pod copy = JSON.clone(pod);
    for (Container c : copy.getSpec().getContainers()) {
      SecurityContext sc = c.getSecurityContext() != null ? c.getSecurityContext() : new SecurityContext();
      if (sc.getAllowPrivilegeEscalation() == null) {
        sc.setAllowPrivilegeEscalation(false);
      }
      if (sc.getSeccompProfile() == null) {
        sc.setSeccompProfile(new SeccompProfileBuilder().withType("RuntimeDefault").build());
      }
      if (sc.getRunAsNonRoot() == null) {
        sc.setRunAsNonRoot(true);
      }
      c.setSecurityContext(sc);
    }
    return copy;
  }

  /** The pod with its host fields taken out: hostPath volumes as emptyDirs, no host network or host ports. */
  private static Pod withoutHostFields(Pod pod) {
    Pod copy = JSON.clone(pod);
    copy.getSpec().getVolumes().stream().filter(v -> v.getHostPath() != null).forEach(v -> {
      v.setHostPath(null);
      v.setEmptyDir(new io.fabric8.kubernetes.api.model.EmptyDirVolumeSource());
    });
    copy.getSpec().setHostNetwork(null);
    Stream.concat(copy.getSpec().getContainers().stream(), copy.getSpec().getInitContainers().stream())
        .flatMap(c -> c.getPorts().stream()).forEach(p -> p.setHostPort(null));
    return copy;
  }

  private record Template(String origin, JsonNode template) {
  }

  /** Every pod template in {@code node}: an object whose spec has containers. */
  private static void collect(String origin, JsonNode node, List<Template> out) {
    if (node.isObject() && node.path("spec").path("containers").isArray()) {
      out.add(new Template(origin, node));
      return;
    }
    if (node.isContainerNode()) {
      for (Iterator<JsonNode> it = node.elements(); it.hasNext(); ) {
        collect(origin, it.next(), out);
      }
    }
  }

  private Pod pod(String name, JsonNode template) {
    ObjectNode spec = ((ObjectNode) template.get("spec")).deepCopy();
    KNATIVE_FIELDS.forEach(spec::remove);
    // Knative names no container ports' protocol and may leave a container unnamed.
    ArrayNode containers = (ArrayNode) spec.get("containers");
    for (int i = 0; i < containers.size(); i++) {
      if (!containers.get(i).hasNonNull("name")) {
        ((ObjectNode) containers.get(i)).put("name", "c" + i);
      }
    }
    JsonNode labels = template.path("metadata").path("labels");
    @SuppressWarnings("unchecked")
    Map<String, String> podLabels = labels.isObject() ? JSON.convertValue(labels, Map.class) : Map.of();
    return new PodBuilder().withNewMetadata().withName(name).withNamespace(ns).withLabels(podLabels).endMetadata()
        .withSpec(JSON.convertValue(spec, PodSpec.class)).build();
  }

  private static Deployment deployment(ManifestRenderer.Result result, String name) {
    return result.objects().stream().filter(o -> o instanceof Deployment && o.getMetadata().getName().equals(name))
        .map(Deployment.class::cast).findFirst().orElseThrow(() -> new AssertionError("no Deployment " + name
            + " in " + result.messages()));
  }

  private static Path repo() {
    return Path.of(System.getProperty("modelplane.repo.root", "..")).toAbsolutePath().normalize();
  }

  private static String manifests() throws IOException {
    StringBuilder all = new StringBuilder();
    for (Path dir : List.of(repo().resolve("deploy/samples"), repo().resolve("deploy/runtimes"))) {
      try (Stream<Path> files = Files.walk(dir)) {
        for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).sorted().toList()) {
          all.append(Files.readString(f)).append("\n---\n");
        }
      }
    }
    return all.toString();
  }

  /**
   * OME services no sample has: on a model stored on a claim, one multi-node and one serverless ({@code minReplicas:
   * 0}, a Knative Service) with the default router.
   */
  private static String extraOme(String ns) {
    return """
        apiVersion: ome.io/v1beta1
        kind: BaseModel
        metadata: {name: qwen-on-claim, namespace: %1$s}
        spec:
          modelFormat: {name: safetensors, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.47.0"}
          modelArchitecture: Qwen2ForCausalLM
          modelParameterSize: 7B
          storage: {storageUri: "pvc://models/qwen"}
        ---
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: qwen-multinode, namespace: %1$s}
        spec:
          model: {name: qwen-on-claim, kind: BaseModel}
          runtime: {name: sglang-multinode, kind: ClusterServingRuntime}
          engine:
            minReplicas: 1
            worker: {size: 2}
        ---
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: qwen-serverless, namespace: %1$s}
        spec:
          model: {name: qwen-on-claim, kind: BaseModel}
          runtime: {name: vllm, kind: ClusterServingRuntime}
          engine: {minReplicas: 0}
          router: {}
        """.formatted(ns);
  }
}
