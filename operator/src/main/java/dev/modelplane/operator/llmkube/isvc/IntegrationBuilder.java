package dev.modelplane.operator.llmkube.isvc;

import dev.modelplane.api.llmkube.v1alpha1.GatewayExposure;
import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import dev.modelplane.api.llmkube.v1alpha1.SloIndicator;
import dev.modelplane.api.llmkube.v1alpha1.SloSpec;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Objects of other projects an InferenceService asks for, built as generic resources because their CRDs are optional:
 * a Pyrra {@code ServiceLevelObjective} for {@code spec.slo} (with {@code --enable-pyrra-slo}), and for
 * {@code spec.endpoint.gateway} an Envoy Gateway {@code Backend} pointing at the service, an Envoy AI Gateway
 * {@code AIServiceBackend} speaking the OpenAI schema to it, and an {@code AIGatewayRoute} on the given Gateway that
 * sends requests whose {@code model} is the service's model name there. All are named after the service (the SLO after
 * {@code slo.name} or {@code <service>-<indicator>}) and carry its labels.
 */
public final class IntegrationBuilder {
  /** Pyrra's ServiceLevelObjective. */
  public static final ResourceDefinitionContext SLO = context("pyrra.dev", "v1alpha1", "ServiceLevelObjective",
      "servicelevelobjectives");
  /** Envoy Gateway's Backend. */
  public static final ResourceDefinitionContext BACKEND = context("gateway.envoyproxy.io", "v1alpha1", "Backend",
      "backends");
  /** Envoy AI Gateway's AIServiceBackend. */
  public static final ResourceDefinitionContext AI_SERVICE_BACKEND = context("aigateway.envoyproxy.io", "v1alpha1",
      "AIServiceBackend", "aiservicebackends");
  /** Envoy AI Gateway's AIGatewayRoute. */
  public static final ResourceDefinitionContext AI_GATEWAY_ROUTE = context("aigateway.envoyproxy.io", "v1alpha1",
      "AIGatewayRoute", "aigatewayroutes");
  /** Every kind this builder makes, for clean-up. */
  public static final List<ResourceDefinitionContext> KINDS = List.of(SLO, BACKEND, AI_SERVICE_BACKEND,
      AI_GATEWAY_ROUTE);

  private IntegrationBuilder() {
  }

  private static ResourceDefinitionContext context(String group, String version, String kind, String plural) {
    return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind)
        .withPlural(plural).withNamespaced(true).build();
  }

  /** Whether the service asks for gateway exposure. */
  public static boolean gatewayEnabled(InferenceServiceSpec spec) {
    return spec.endpoint() != null && spec.endpoint().gateway() != null
        && Boolean.TRUE.equals(spec.endpoint().gateway().enabled()) && spec.endpoint().gateway().gatewayRef() != null;
  }

  /** The OpenAI {@code model} value the route matches: {@code gateway.modelName}, else the Model, else the name. */
  public static String modelName(String serviceName, InferenceServiceSpec spec) {
    GatewayExposure gateway = spec.endpoint() == null ? null : spec.endpoint().gateway();
    if (gateway != null && gateway.modelName() != null && !gateway.modelName().isBlank()) {
      return gateway.modelName();
    }
    return spec.modelRef() != null && !spec.modelRef().isBlank() ? spec.modelRef() : serviceName;
  }

  /** The Pyrra indicator is measurable for the runtime: latency needs vLLM's request-latency histogram. */
  public static boolean sloSupported(SloSpec slo, String runtime) {
    return slo.indicator() != SloIndicator.LATENCY || "vllm".equals(runtime);
  }

  /**
   * The ServiceLevelObjective, or null when the service has no {@code slo}, the operator runs without
   * {@code --enable-pyrra-slo}, or the indicator cannot be measured for the runtime.
   */
  public static GenericKubernetesResource slo(ServingPlan plan) {
    SloSpec slo = plan.spec().slo();
    if (slo == null || !plan.settings().pyrraSlo() || !sloSupported(slo, plan.renderer().runtimeName())) {
      return null;
    }
    SloIndicator indicator = slo.indicator() == null ? SloIndicator.AVAILABILITY : slo.indicator();
    String indicatorName = indicator == SloIndicator.LATENCY ? "latency" : "availability";
    String name = slo.name() != null && !slo.name().isBlank() ? slo.name() : plan.name() + "-" + indicatorName;
    // Series of this service's pods, whichever way they are scraped: ServiceMonitors and PodMonitors both add the
    // namespace and pod labels; Deployment pods are named <deployment>-<template hash>-<suffix>.
    String pods = "namespace=\"" + plan.namespace() + "\",pod=~\"" + plan.name() + "-[a-z0-9]+-[a-z0-9]+\"";
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("target", slo.objective());
    spec.put("window", slo.window() == null ? "28d" : slo.window());
    if (indicator == SloIndicator.LATENCY) {
      spec.put("description", "Share of requests to " + plan.name() + " completed within " + slo.latencyThreshold()
          + "s");
      spec.put("indicator", map("latency", map(
          "success", map("metric", "vllm:e2e_request_latency_seconds_bucket{" + pods + ",le=\""
              + slo.latencyThreshold() + "\"}"),
          "total", map("metric", "vllm:e2e_request_latency_seconds_count{" + pods + "}"))));
    } else {
      spec.put("description", "Share of time the pods of " + plan.name() + " answer their metrics scrape");
      spec.put("indicator", map("bool_gauge", map("metric", "up{" + pods + "}")));
    }
    return resource(SLO, name, plan, spec);
  }

  /** Backend, AIServiceBackend and AIGatewayRoute, or none when gateway exposure is off. */
  public static List<GenericKubernetesResource> gateway(ServingPlan plan) {
    if (!gatewayEnabled(plan.spec())) {
      return List.of();
    }
    GatewayExposure gateway = plan.spec().endpoint().gateway();
    String name = plan.name();
    List<GenericKubernetesResource> objects = new ArrayList<>();
    objects.add(resource(BACKEND, name, plan, map("endpoints", List.of(map("fqdn", map(
        "hostname", plan.serviceName() + "." + plan.namespace() + ".svc.cluster.local",
        "port", plan.servicePort()))))));
    objects.add(resource(AI_SERVICE_BACKEND, name, plan, map(
        "schema", map("name", "OpenAI"),
        "backendRef", map("name", name, "kind", "Backend", "group", BACKEND.getGroup()))));
    Map<String, Object> parent = new LinkedHashMap<>();
    parent.put("name", gateway.gatewayRef().name());
    if (gateway.gatewayRef().namespace() != null && !gateway.gatewayRef().namespace().isBlank()) {
      parent.put("namespace", gateway.gatewayRef().namespace());
    }
    parent.put("kind", "Gateway");
    parent.put("group", "gateway.networking.k8s.io");
    objects.add(resource(AI_GATEWAY_ROUTE, name, plan, map(
        "parentRefs", List.of(parent),
        "schema", map("name", "OpenAI"),
        "rules", List.of(map(
            "matches", List.of(map("headers", List.of(map("type", "Exact", "name", "x-ai-eg-model",
                "value", modelName(name, plan.spec()))))),
            "backendRefs", List.of(map("name", name)))))));
    return objects;
  }

  /** A map keeping the order of its keys, so the objects print the same every time. */
  private static Map<String, Object> map(Object... keysAndValues) {
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }

  private static GenericKubernetesResource resource(ResourceDefinitionContext kind, String name, ServingPlan plan,
      Map<String, Object> spec) {
    GenericKubernetesResource r = new GenericKubernetesResource();
    r.setApiVersion(kind.getGroup() + "/" + kind.getVersion());
    r.setKind(kind.getKind());
    r.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(plan.namespace())
        .withLabels(plan.labels()).build());
    r.setAdditionalProperty("spec", spec);
    return r;
  }
}
