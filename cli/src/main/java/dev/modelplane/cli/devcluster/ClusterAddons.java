package dev.modelplane.cli.devcluster;

import dev.modelplane.controlplane.ControlPlane;
import dev.modelplane.controlplane.UpstreamCrds;
import dev.modelplane.operator.scheduling.PriorityClassInstaller;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClass;
import io.fabric8.kubernetes.api.model.node.v1.RuntimeClassBuilder;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.StorageClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a GPU cluster has and the bare dev cluster lacks, so manifests written for real clusters work unchanged: the
 * {@code nvidia} RuntimeClass (the GPU operator's), the {@code llmkube-*} PriorityClasses, and a default StorageClass
 * whose claims {@link DirectoryProvisioner} binds; and the KEDA and Gateway API CRDs.
 */
public final class ClusterAddons {
  /** The default StorageClass of the dev cluster. */
  public static final String STORAGE_CLASS = "modelplane-local";
  static final String MANAGER = "modelplane-dev-cluster";
  private static final Logger LOG = LoggerFactory.getLogger(ClusterAddons.class);

  private ClusterAddons() {
  }

  /** The RuntimeClasses GPU manifests name. */
  static List<RuntimeClass> runtimeClasses() {
    return List.of(new RuntimeClassBuilder().withNewMetadata().withName("nvidia")
        .addToLabels("app.kubernetes.io/managed-by", MANAGER).endMetadata().withHandler("nvidia").build());
  }

  /** The default StorageClass, provisioned from a directory on this machine. */
  static StorageClass storageClass() {
    return new StorageClassBuilder().withNewMetadata().withName(STORAGE_CLASS)
        .addToAnnotations("storageclass.kubernetes.io/is-default-class", "true")
        .addToLabels("app.kubernetes.io/managed-by", MANAGER).endMetadata()
        .withProvisioner(DirectoryProvisioner.PROVISIONER).withReclaimPolicy("Delete")
        .withVolumeBindingMode("Immediate").withAllowVolumeExpansion(true).build();
  }

  /** Applies every add-on (idempotent). */
  public static void install(KubernetesClient client) {
    for (RuntimeClass rc : runtimeClasses()) {
      client.resource(rc).fieldManager(MANAGER).forceConflicts().serverSideApply();
    }
    client.storage().v1().storageClasses().resource(storageClass()).fieldManager(MANAGER).forceConflicts()
        .serverSideApply();
    PriorityClassInstaller.install(client);
  }

  /**
   * Installs the CRDs of the optional projects whose objects the operator creates and that need no controller to
   * be useful here: KEDA (ScaledObjects are accepted; nothing scales on them) and the Gateway API, with the
   * GatewayClass {@value #GATEWAY_CLASS} whose Gateways the router serves (listeners on its host, routes by their
   * HTTPRoutes). Fetched once into the cache; a failure is logged and the cluster goes on without them (services
   * that need them say which CRD is missing).
   */
  public static void installUpstreamCrds(ControlPlane cp) {
    for (UpstreamCrds set : List.of(UpstreamCrds.KEDA, UpstreamCrds.GATEWAY_API)) {
      try {
        cp.installCrdFiles(set.files());
        if (set == UpstreamCrds.GATEWAY_API) {
          cp.client().resource(gatewayClass()).fieldManager(MANAGER).forceConflicts().serverSideApply();
        }
      } catch (IOException | RuntimeException e) {
        LOG.atWarn().addKeyValue("crds", set).addKeyValue("error", e.getMessage())
            .log("optional CRDs not installed");
      }
    }
  }

  /** The GatewayClass of modelplane's gateway, in every dev cluster. */
  public static final String GATEWAY_CLASS = "modelplane";

  static io.fabric8.kubernetes.api.model.GenericKubernetesResource gatewayClass() {
    io.fabric8.kubernetes.api.model.GenericKubernetesResource gc =
        new io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder()
            .withApiVersion("gateway.networking.k8s.io/v1").withKind("GatewayClass").withNewMetadata()
            .withName(GATEWAY_CLASS).addToLabels("app.kubernetes.io/managed-by", MANAGER).endMetadata().build();
    gc.setAdditionalProperty("spec", Map.of("controllerName",
        dev.modelplane.router.gatewayapi.GatewayController.DEFAULT_CONTROLLER_NAME,
        "description", "modelplane router: listeners on the router host"));
    return gc;
  }
}
