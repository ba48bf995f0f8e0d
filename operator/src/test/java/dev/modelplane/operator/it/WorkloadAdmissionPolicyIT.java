package dev.modelplane.operator.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.KubeTest;
import dev.modelplane.controlplane.WithControlPlane;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * deploy/admission/workload-policy.yaml on the real kube-apiserver: each of the modelplane resources that asks for
 * the node (privileged, root, capabilities, host namespaces and ports, hostPath, external Services) is refused when
 * written into an unlabelled namespace, with the policy's message naming the field; the same resource is admitted in
 * a namespace labelled {@code modelplane.dev/workload-policy=privileged}, and a benign one everywhere; the
 * controller-manager's type check of the expressions against the resources' schemas finds nothing. The bindings
 * are narrowed to this test's two namespaces, so other tests sharing the control plane are not affected, and the
 * policies are removed afterwards.
 */
@WithControlPlane({ControlPlane.Component.CONTROLLER_MANAGER})
class WorkloadAdmissionPolicyIT {
  private static final String HINT = "label the namespace modelplane.dev/workload-policy=privileged";

  private KubernetesClient admin;
  private String ns;
  private String privileged;
  private final List<HasMetadata> installed = new ArrayList<>();

  @BeforeEach
  void installThePolicies(KubeTest test) throws IOException {
    admin = test.controlPlane().client();
    ns = test.namespace();
    privileged = test.uniqueName("privileged");
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(privileged)
        .addToLabels("modelplane.dev/workload-policy", "privileged").endMetadata().build()).create();
    String manifest = Files.readString(repo().resolve("deploy/admission/workload-policy.yaml"));
    for (String document : manifest.split("(?m)^---$")) {
      if (document.lines().allMatch(l -> l.isBlank() || l.startsWith("#"))) {
        continue;
      }
      GenericKubernetesResource r = parse(document);
      if (r.getKind().equals("ValidatingAdmissionPolicyBinding")) {
        @SuppressWarnings("unchecked")
        Map<String, Object> spec = (Map<String, Object>) r.getAdditionalProperties().get("spec");
        spec.put("matchResources", Map.of("namespaceSelector", Map.of("matchExpressions", List.of(Map.of(
            "key", "kubernetes.io/metadata.name", "operator", "In", "values", List.of(ns, privileged))))));
      }
      installed.add(admin.resource(r).create());
    }
    // The apiserver picks the policies up from its informer: wait until a refused object is refused.
    await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
        assertThat(refusal(llmkube("spec: {modelRef: m, securityContext: {privileged: true}}"), ns)).isNotNull());
  }

  @Test
  void thePoliciesTypeCheckAgainstTheResourcesSchemas() {
    await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
      for (HasMetadata policy : installed) {
        if (!policy.getKind().equals("ValidatingAdmissionPolicy")) {
          continue;
        }
        GenericKubernetesResource live = admin.genericKubernetesResources("admissionregistration.k8s.io/v1",
            "ValidatingAdmissionPolicy").withName(policy.getMetadata().getName()).get();
        Object status = live.getAdditionalProperties().get("status");
        assertThat(status).as(policy.getMetadata().getName() + " status").isNotNull();
        @SuppressWarnings("unchecked")
        Map<String, Object> typeChecking = (Map<String, Object>) ((Map<String, Object>) status).get("typeChecking");
        assertThat(typeChecking).as(policy.getMetadata().getName() + " typeChecking").isNotNull();
        assertThat(typeChecking.get("expressionWarnings")).as(policy.getMetadata().getName()).isNull();
      }
    });
  }

  @AfterEach
  void removeThePolicies() {
    for (HasMetadata object : installed.reversed()) {
      admin.resource(object).delete();
    }
    admin.namespaces().withName(privileged).delete();
  }

  @Test
  void llmkubeInferenceServicesAskingForTheNodeAreRefusedUnlessTheNamespaceIsLabelled() {
    assertThat(refusal(llmkube("spec: {modelRef: m}"), ns)).isNull();
    assertThat(refusal(llmkube("spec: {modelRef: m, podSecurityContext: {runAsUser: 2000}, securityContext: "
        + "{readOnlyRootFilesystem: true, capabilities: {add: [NET_BIND_SERVICE]}}}"), ns)).isNull();
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, securityContext: {privileged: true}}"),
        "spec.securityContext: privileged and allowPrivilegeEscalation true are refused");
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, securityContext: {runAsUser: 0}}"),
        "spec.securityContext: runAsUser 0 and runAsNonRoot false (root) are refused");
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, podSecurityContext: {runAsNonRoot: false}}"),
        "spec.podSecurityContext: runAsUser 0 and runAsNonRoot false (root) are refused");
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, securityContext: {capabilities: {add: [SYS_ADMIN]}}}"),
        "spec.securityContext.capabilities.add: only NET_BIND_SERVICE may be added");
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, extraVolumes: [{name: h, hostPath: {path: /}}]}"),
        "spec.extraVolumes: hostPath volumes are refused");
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, podAnnotations: "
        + "{seccomp.security.alpha.kubernetes.io/pod: unconfined}}"),
        "spec.podAnnotations: an unconfined AppArmor or seccomp annotation is refused");
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, endpoint: {type: LoadBalancer}}"),
        "spec.endpoint.type: only ClusterIP Services are allowed");
    assertThat(refusal(llmkube("spec: {modelRef: m, podSecurityContext: {seLinuxOptions: {type: container_t, "
        + "level: 's0:c1,c2'}}}"), ns)).isNull();
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, securityContext: {seLinuxOptions: {user: system_u}}}"),
        "spec.securityContext.seLinuxOptions: a user or role, or a type other than container_t");
    assertRefusedOnlyUnlabelled(llmkube("spec: {modelRef: m, podSecurityContext: {seLinuxOptions: {type: spc_t}}}"),
        "spec.podSecurityContext.seLinuxOptions: a user or role, or a type other than container_t");
  }

  @Test
  void omeInferenceServicesAndServingRuntimesAskingForTheNodeAreRefusedUnlessTheNamespaceIsLabelled() {
    assertThat(refusal(ome("spec: {model: {name: llama}, engine: {minReplicas: 1, runner: {image: vllm}}}"), ns))
        .isNull();
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, engine: {runner: {securityContext: "
        + "{privileged: true}}}}"), "a container's securityContext.privileged or allowPrivilegeEscalation true");
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, engine: {hostNetwork: true}}"),
        "hostNetwork, hostPID and hostIPC are refused");
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, engine: {}, decoder: {worker: {volumes: [{name: h, "
        + "hostPath: {path: /}}]}}}"), "hostPath volumes are refused");
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, engine: {leader: {containers: [{name: c, "
        + "securityContext: {capabilities: {add: [NET_ADMIN]}}}]}}}"),
        "capabilities.add other than NET_BIND_SERVICE is refused");
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, predictor: {model: {securityContext: "
        + "{runAsUser: 0}}}}"), "runAsUser 0 and runAsNonRoot false (root) are refused");
    assertRefusedOnlyUnlabelled(ome("metadata: {annotations: {ome.io/service-type: NodePort}}\n"
        + "spec: {model: {name: llama}, engine: {}}"),
        "metadata.annotations[ome.io/service-type]: only ClusterIP Services are allowed");
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, engine: {securityContext: {seLinuxOptions: "
        + "{type: spc_t}}}}"), "securityContext.seLinuxOptions with a user or role, or a type other than container_t");
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, engine: {runner: {securityContext: "
        + "{seLinuxOptions: {role: sysadm_r}}}}}"), "a container's securityContext.seLinuxOptions with a user or role");
    assertRefusedOnlyUnlabelled(ome("spec: {model: {name: llama}, engine: {runner: {livenessProbe: {httpGet: "
        + "{host: 169.254.169.254, port: 80}}}}}"), "a container's probe or lifecycle handler with httpGet.host");
    assertThat(refusal(ome("spec: {model: {name: llama}, engine: {runner: {image: vllm, readinessProbe: {httpGet: "
        + "{path: /health, port: 8080}}}}}"), ns)).isNull();

    String runtime = """
        apiVersion: ome.io/v1beta1
        kind: ServingRuntime
        metadata: {name: mine}
        spec:
          supportedModelFormats:
          - {name: llama, modelFormat: {name: safetensors}, modelFramework: {name: transformers}}
        """;
    assertThat(refusal(parse(runtime + "  engineConfig: {runner: {name: ome-container, image: vllm}}\n"), ns)).isNull();
    assertRefusedOnlyUnlabelled(parse(runtime + "  hostNetwork: true\n"), "hostNetwork, hostPID and hostIPC");
    assertRefusedOnlyUnlabelled(parse(runtime + "  engineConfig: {hostPID: true}\n"),
        "hostNetwork, hostPID and hostIPC");
    assertRefusedOnlyUnlabelled(parse(runtime + "  workers: {volumes: [{name: h, hostPath: {path: /}}]}\n"),
        "hostPath volumes are refused");
    assertRefusedOnlyUnlabelled(parse(runtime + "  engineConfig: {runner: {name: ome-container, "
        + "ports: [{containerPort: 80, hostPort: 80}]}}\n"), "hostPort is refused");
    assertRefusedOnlyUnlabelled(parse(runtime + "  engineConfig: {runner: {name: ome-container, lifecycle: "
        + "{preStop: {tcpSocket: {host: 10.0.0.1, port: 2379}}}}}\n"),
        "probe or lifecycle handler with httpGet.host or tcpSocket.host is refused");
  }

  @Test
  void modelServicesAndBenchmarkJobsAskingForTheNodeAreRefusedUnlessTheNamespaceIsLabelled() {
    String ms = """
        apiVersion: model.otterscale.io/v1alpha1
        kind: ModelService
        metadata: {name: qwen}
        spec:
          model: {name: Qwen/Qwen3-8B, image: registry.example.com/qwen:v1}
          engine: {}
          accelerator: {type: nvidia}
          decode: {replicas: 1, annotations: {%s}}
        """;
    assertThat(refusal(parse(ms.formatted("team: a")), ns)).isNull();
    assertRefusedOnlyUnlabelled(parse(ms.formatted(
        "container.apparmor.security.beta.kubernetes.io/vllm: unconfined")),
        "spec.decode/prefill.annotations: an unconfined AppArmor or seccomp annotation is refused");

    String bench = """
        apiVersion: ome.io/v1beta1
        kind: BenchmarkJob
        metadata: {name: run}
        spec:
          endpoint: {endpoint: {url: "http://llm:8000", apiFormat: openai, modelName: llama}}
          task: text-to-text
          maxTimePerIteration: 1
          maxRequestsPerIteration: 20
          outputLocation: {storageUri: "pvc://results/runs"}
        """;
    assertThat(refusal(parse(bench + "  dataset: {storageUri: \"hf://org/prompts\"}\n"), ns)).isNull();
    assertRefusedOnlyUnlabelled(parse(bench + "  dataset: {storageUri: \"local:///etc\"}\n"),
        "spec.dataset.storageUri: a local:// dataset is a directory of the node (hostPath) and is refused");
    assertRefusedOnlyUnlabelled(parse(bench + "  podOverride: {volumes: [{name: h, hostPath: {path: /}}]}\n"),
        "spec.podOverride.volumes: hostPath volumes are refused");
  }

  private void assertRefusedOnlyUnlabelled(GenericKubernetesResource object, String message) {
    assertThat(refusal(object, ns)).as("refused in %s", ns).contains(message).contains(HINT)
        .contains("ValidatingAdmissionPolicy");
    assertThat(refusal(object, privileged)).as("admitted in the labelled namespace").isNull();
  }

  /** The apiserver's error creating {@code object} in {@code namespace} (a dry run), or null when admitted. */
  private String refusal(GenericKubernetesResource object, String namespace) {
    try {
      admin.resource(object).inNamespace(namespace).dryRun().create();
      return null;
    } catch (KubernetesClientException e) {
      assertThat(e.getCode()).as(e.getMessage()).isIn(403, 422);
      return e.getMessage();
    }
  }

  private static GenericKubernetesResource llmkube(String yaml) {
    return parse("apiVersion: inference.llmkube.dev/v1alpha1\nkind: InferenceService\nmetadata: {name: chat}\n"
        + yaml);
  }

  private static GenericKubernetesResource ome(String yaml) {
    String header = "apiVersion: ome.io/v1beta1\nkind: InferenceService\n";
    return parse(yaml.startsWith("metadata:") ? header + yaml.replaceFirst("metadata: \\{", "metadata: {name: chat, ")
        : header + "metadata: {name: chat}\n" + yaml);
  }

  private static GenericKubernetesResource parse(String yaml) {
    return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
  }

  private static Path repo() {
    Path dir = Path.of("").toAbsolutePath();
    while (!Files.exists(dir.resolve("deploy/admission"))) {
      dir = dir.getParent();
    }
    return dir;
  }
}
