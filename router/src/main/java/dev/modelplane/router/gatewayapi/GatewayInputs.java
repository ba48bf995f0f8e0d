package dev.modelplane.router.gatewayapi;

import dev.modelplane.api.gie.v1.InferencePool;
import dev.modelplane.router.pool.PoolKey;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything {@link GatewayModel#compile} reads: the Gateway API objects as the cluster holds them, the
 * InferencePools, which Services exist and the labels of every namespace. Fields of the Gateway API objects are read
 * from their {@code spec} and {@code metadata}; nothing here is mutated.
 *
 * @param controllerName the {@code spec.controllerName} that marks a GatewayClass as ours (modelplane's default is
 *     {@code modelplane.dev/gateway-controller})
 * @param gatewayClasses every GatewayClass ({@code gateway.networking.k8s.io/v1})
 * @param gateways every Gateway ({@code gateway.networking.k8s.io/v1})
 * @param httpRoutes every HTTPRoute ({@code gateway.networking.k8s.io/v1})
 * @param referenceGrants every ReferenceGrant ({@code gateway.networking.k8s.io/v1beta1})
 * @param namespaceLabels labels per namespace name, for listeners that admit routes by namespace selector
 * @param services {@code namespace/name} of every Service that exists
 * @param pools every InferencePool, by namespace and name
 */
public record GatewayInputs(
    String controllerName,
    List<GenericKubernetesResource> gatewayClasses,
    List<GenericKubernetesResource> gateways,
    List<GenericKubernetesResource> httpRoutes,
    List<GenericKubernetesResource> referenceGrants,
    Map<String, Map<String, String>> namespaceLabels,
    Set<String> services,
    Map<PoolKey, InferencePool> pools) {}
