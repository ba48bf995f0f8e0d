package dev.modelplane.operator.ome.isvc;

import dev.modelplane.common.picker.PickerConfigs;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.PolicyRuleBuilder;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The router an InferenceService gets when it declares a router but neither it nor its runtime says which image to
 * run: {@code modelplane router} serving an InferencePool of the service's model-server pods. With a decoder the
 * router splits each request into a prefill on an engine pod and a decode on a decoder pod (llm-d's P/D protocol,
 * pods told apart by the {@code llm-d.ai/role} label); otherwise it picks the best engine pod by load, KV cache and
 * prefix cache.
 */
final class DefaultRouter {
  /** Label on engine and decoder pods: what the InferencePool selects. */
  static final String MODEL_SERVER_LABEL = "modelplane.dev/model-server";
  /** llm-d's pod role label, read by the router's prefill and decode filters. */
  static final String ROLE_LABEL = "llm-d.ai/role";
  static final String CONTAINER = "router";
  static final int HTTP_PORT = 8080;
  static final int GRPC_PORT = 9002;
  static final int METRICS_PORT = 9090;

  private DefaultRouter() {
  }

  /** The router container for the service {@code isvc}, disaggregated when {@code prefillDecode}. */
  static Container container(String image, String isvc, boolean prefillDecode) {
    ContainerBuilder b = new ContainerBuilder().withName(CONTAINER).withImage(image)
        .withArgs(args(isvc, prefillDecode))
        .addNewEnv().withName("NAMESPACE").withNewValueFrom().withNewFieldRef().withFieldPath("metadata.namespace")
        .endFieldRef().endValueFrom().endEnv()
        .addNewPort().withName("http").withContainerPort(HTTP_PORT).withProtocol("TCP").endPort()
        .addNewPort().withName("grpc").withContainerPort(GRPC_PORT).withProtocol("TCP").endPort()
        .addNewPort().withName("metrics").withContainerPort(METRICS_PORT).withProtocol("TCP").endPort()
        .withNewReadinessProbe().withNewHttpGet().withPath("/readyz").withPort(new IntOrString(HTTP_PORT))
        .endHttpGet().withPeriodSeconds(5).endReadinessProbe()
        .withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("500m"))
        .addToRequests("memory", new io.fabric8.kubernetes.api.model.Quantity("512Mi"))
        .addToLimits("memory", new io.fabric8.kubernetes.api.model.Quantity("1Gi")).endResources();
    return b.build();
  }

  private static List<String> args(String isvc, boolean prefillDecode) {
    // It is the pool's endpoint picker: never follows the pool's reference to itself.
    List<String> args = new java.util.ArrayList<>(List.of("router", "--host=0.0.0.0",
        "--endpoint-picker-refs=in-process", "--port=" + HTTP_PORT,
        "--grpc-port=" + GRPC_PORT, "--metrics-port=" + METRICS_PORT, "--pool=" + isvc,
        "--pool-namespace=$(NAMESPACE)"));
    if (prefillDecode) {
      args.add("--config-text=" + PickerConfigs.OME_PREFILL_DECODE.yaml());
    }
    return args;
  }

  /**
   * The InferencePool of the service's model-server pods (engine and decoder), whose endpoint picker is the
   * router's ext_proc port.
   */
  static GenericKubernetesResource pool(String isvc, String routerService, int targetPort, Map<String, String> labels) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("selector", Map.of("matchLabels", Map.of(OmeLabels.INFERENCE_SERVICE, isvc, MODEL_SERVER_LABEL,
        "true")));
    spec.put("targetPorts", List.of(Map.of("number", targetPort)));
    spec.put("endpointPickerRef", Map.of("name", routerService, "port", Map.of("number", GRPC_PORT)));
    return new GenericKubernetesResourceBuilder().withApiVersion("inference.networking.k8s.io/v1")
        .withKind("InferencePool").withNewMetadata().withName(isvc).withLabels(labels).endMetadata()
        .addToAdditionalProperties("spec", spec).build();
  }

  /**
   * What the router's Role must allow besides reading pods: its pools, objectives and model rewrites, the objectives'
   * and rewrites' status, and the Services and EndpointSlices that tell where each pool's endpoint picker is (the
   * pool names the router's own Service, which the router recognises by address).
   */
  static List<PolicyRule> extraRules() {
    return List.of(
        new PolicyRuleBuilder().withApiGroups("inference.networking.k8s.io").withResources("inferencepools")
            .withVerbs("list", "watch").build(),
        new PolicyRuleBuilder().withApiGroups("inference.networking.x-k8s.io", "llm-d.ai")
            .withResources("inferenceobjectives", "inferencemodelrewrites").withVerbs("get", "list", "watch")
            .build(),
        new PolicyRuleBuilder().withApiGroups("inference.networking.x-k8s.io", "llm-d.ai")
            .withResources("inferenceobjectives/status", "inferencemodelrewrites/status").withVerbs("patch")
            .build(),
        new PolicyRuleBuilder().withApiGroups("").withResources("services").withVerbs("list", "watch").build(),
        new PolicyRuleBuilder().withApiGroups("discovery.k8s.io").withResources("endpointslices")
            .withVerbs("list", "watch").build());
  }
}
