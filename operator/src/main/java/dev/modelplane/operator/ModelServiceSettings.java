package dev.modelplane.operator;

import java.util.Locale;
import java.util.Objects;

/**
 * Operator-wide settings of OtterScale ModelServices, OtterScale's operator flags under their own names.
 *
 * @param engineImage vLLM image when {@code spec.engine.image} is unset ({@code --default-engine-image})
 * @param pickerImage endpoint picker image when {@code spec.inferencePool.endpointPicker.image} is unset, and of the
 *     picker every ModelService gets without {@code spec.inferencePool}; by default modelplane's router
 * @param routingProxyImage routing sidecar image when {@code spec.routingProxy.image} is unset
 * @param kitImage image of the {@code model-unpack} init container; empty for none
 * @param defaultGatewayName Gateway of the HTTPRoute of ModelServices without {@code spec.httpRoute}; empty: no
 *     route for them
 * @param defaultGatewayNamespace that Gateway's namespace (OtterScale hard-codes {@code llm-d})
 * @param provider {@code istio} (an Istio DestinationRule for the picker), {@code gke} or {@code none}
 * @param metricsEndpointAuth the picker's metrics need a bearer token: pickers of {@code pickerImage} are bound to the
 *     installed ClusterRole {@code modelplane-endpoint-picker} (token and access reviews), and the ServiceMonitor has
 *     Prometheus present its own token; off, the operator touches no cluster-scoped RBAC at all
 * @param tracing OpenTelemetry settings passed to the picker and the routing sidecar
 */
public record ModelServiceSettings(String engineImage, String pickerImage, String routingProxyImage, String kitImage,
    String defaultGatewayName, String defaultGatewayNamespace, Provider provider, boolean metricsEndpointAuth,
    Tracing tracing) {
  public static final String DEFAULT_ENGINE_IMAGE = "ghcr.io/llm-d/llm-d-cuda:v0.5.1";
  public static final String DEFAULT_ROUTING_PROXY_IMAGE = "ghcr.io/llm-d/llm-d-routing-sidecar:v0.6.0";
  public static final String DEFAULT_KIT_IMAGE = "ghcr.io/kitops-ml/kitops:v1.11.0";
  public static final String DEFAULT_GATEWAY_NAME = "otterscale-llm-d-infra-inference-gateway";
  public static final String DEFAULT_GATEWAY_NAMESPACE = "llm-d";

  /** Where the cluster's mesh comes from. */
  public enum Provider {
    ISTIO, GKE, NONE;

    /** {@code istio}, {@code gke} or {@code none}, as OtterScale's {@code --provider}. */
    public static Provider of(String text) {
      for (Provider p : values()) {
        if (p.flag().equals(text)) {
          return p;
        }
      }
      throw new IllegalArgumentException("provider must be istio, gke or none, got '" + text + "'");
    }

    public String flag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /**
   * OpenTelemetry export of the picker and the routing sidecar.
   *
   * @param enabled export traces
   * @param endpoint OTLP endpoint
   * @param sampler sampler name
   * @param samplerArg sampler argument
   */
  public record Tracing(boolean enabled, String endpoint, String sampler, String samplerArg) {
    public static final Tracing OFF = new Tracing(false, "", "parentbased_traceidratio", "0.01");

    public Tracing {
      endpoint = Objects.requireNonNullElse(endpoint, "");
      sampler = Objects.requireNonNullElse(sampler, "");
      samplerArg = Objects.requireNonNullElse(samplerArg, "");
    }
  }

  public ModelServiceSettings {
    engineImage = Objects.requireNonNullElse(engineImage, DEFAULT_ENGINE_IMAGE);
    pickerImage = Objects.requireNonNullElse(pickerImage, ProjectVersion.image());
    routingProxyImage = Objects.requireNonNullElse(routingProxyImage, DEFAULT_ROUTING_PROXY_IMAGE);
    kitImage = Objects.requireNonNullElse(kitImage, DEFAULT_KIT_IMAGE);
    defaultGatewayName = Objects.requireNonNullElse(defaultGatewayName, DEFAULT_GATEWAY_NAME);
    defaultGatewayNamespace = Objects.requireNonNullElse(defaultGatewayNamespace, DEFAULT_GATEWAY_NAMESPACE);
    provider = Objects.requireNonNullElse(provider, Provider.ISTIO);
    tracing = Objects.requireNonNullElse(tracing, Tracing.OFF);
  }

  /** OtterScale's defaults, with modelplane's router as the endpoint picker. */
  public static ModelServiceSettings defaults() {
    return new ModelServiceSettings(null, null, null, null, null, null, null, true, null);
  }
}
