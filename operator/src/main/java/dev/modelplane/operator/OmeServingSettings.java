package dev.modelplane.operator;

import java.util.Objects;

/**
 * Operator-wide settings of OME InferenceServices, the part of OME's {@code inferenceservice-config} ConfigMap that
 * applies here: how services are exposed and what runs as a router when none is configured.
 *
 * @param routerImage image of the default router ({@code modelplane router}), for services that declare a router
 *     without an image
 * @param ingressEnabled expose services through an Ingress (or an HTTPRoute with {@code gatewayApi}) besides the
 *     in-cluster Service; off by default, as in OME
 * @param gatewayApi use a Gateway API HTTPRoute instead of an Ingress
 * @param gateway the Gateway an HTTPRoute attaches to, {@code namespace/name}
 * @param ingressClassName the IngressClass of Ingresses, or null for the cluster default
 * @param ingressDomain the domain of generated host names
 * @param domainTemplate how a host name is made from {@code {{.Name}}}, {@code {{.Namespace}}} and
 *     {@code {{.IngressDomain}}}
 */
public record OmeServingSettings(String routerImage, boolean ingressEnabled, boolean gatewayApi, String gateway,
    String ingressClassName, String ingressDomain, String domainTemplate) {
  public static final String DEFAULT_GATEWAY = "ome/ome-gateway";
  public static final String DEFAULT_DOMAIN = "example.com";
  public static final String DEFAULT_DOMAIN_TEMPLATE = "{{ .Name }}.{{ .Namespace }}.{{ .IngressDomain }}";

  public OmeServingSettings {
    routerImage = Objects.requireNonNullElse(routerImage, ProjectVersion.image());
    gateway = Objects.requireNonNullElse(gateway, DEFAULT_GATEWAY);
    ingressDomain = Objects.requireNonNullElse(ingressDomain, DEFAULT_DOMAIN);
    domainTemplate = Objects.requireNonNullElse(domainTemplate, DEFAULT_DOMAIN_TEMPLATE);
    if (!gateway.contains("/")) {
      throw new IllegalArgumentException("the gateway must be namespace/name, got " + gateway);
    }
  }

  /** OME's defaults: ingress off, the in-cluster Service only. */
  public static OmeServingSettings defaults() {
    return new OmeServingSettings(null, false, false, null, null, null, null);
  }
}
