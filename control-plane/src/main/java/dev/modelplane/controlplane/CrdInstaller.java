package dev.modelplane.controlplane;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/** Installs CustomResourceDefinitions into the control plane and takes them out again, waiting for the apiserver. */
final class CrdInstaller {
  private static final String FIELD_MANAGER = "modelplane-control-plane";
  private static final long WAIT_SECONDS = 60;

  private CrdInstaller() {
  }

  /** The CustomResourceDefinitions among the documents of {@code files}. */
  static List<CustomResourceDefinition> read(KubernetesClient client, List<Path> files) throws IOException {
    List<CustomResourceDefinition> crds = new ArrayList<>();
    for (Path file : files) {
      try (InputStream in = Files.newInputStream(file)) {
        for (HasMetadata object : client.load(in).items()) {
          if (object instanceof CustomResourceDefinition crd) {
            crds.add(crd);
          }
        }
      }
    }
    return crds;
  }

  /**
   * Applies {@code crds} server-side and waits until each is Established and its kind is in the API discovery of
   * every served version (discovery is published a moment after Established; clients that look kinds up there, as
   * fabric8's generic resources do, would otherwise miss it); returns their names.
   */
  static List<String> apply(KubernetesClient client, List<CustomResourceDefinition> crds) {
    List<String> names = new ArrayList<>();
    for (CustomResourceDefinition crd : crds) {
      client.apiextensions().v1().customResourceDefinitions().resource(crd)
          .fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
      names.add(crd.getMetadata().getName());
    }
    for (String name : names) {
      client.apiextensions().v1().customResourceDefinitions().withName(name).waitUntilCondition(
          crd -> crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
              && crd.getStatus().getConditions().stream()
              .anyMatch(cond -> "Established".equals(cond.getType()) && "True".equals(cond.getStatus())),
          WAIT_SECONDS, TimeUnit.SECONDS);
    }
    for (CustomResourceDefinition crd : crds) {
      for (var version : crd.getSpec().getVersions()) {
        if (Boolean.TRUE.equals(version.getServed())) {
          awaitDiscovery(client, crd.getSpec().getGroup() + "/" + version.getName(), crd.getSpec().getNames()
              .getKind());
        }
      }
    }
    return names;
  }

  private static void awaitDiscovery(KubernetesClient client, String groupVersion, String kind) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (System.nanoTime() < deadline) {
      var resources = client.getApiResources(groupVersion);
      if (resources != null && resources.getResources().stream().anyMatch(r -> kind.equals(r.getKind()))) {
        return;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
    throw new IllegalStateException(kind + " (" + groupVersion + ") did not appear in API discovery within "
        + WAIT_SECONDS + " s");
  }

  /**
   * Deletes the named CRDs (the apiserver removes their objects) and waits until they are gone. A CRD deleted while
   * the apiserver still initialises the storage of its objects stays Terminating with a growing back-off ("could
   * not list instances: storage is (re)initializing"), so each CRD's objects are listed successfully first.
   */
  static void remove(KubernetesClient client, List<String> names) {
    for (String name : names) {
      CustomResourceDefinition crd = client.apiextensions().v1().customResourceDefinitions().withName(name).get();
      if (crd != null) {
        awaitStorage(client, crd);
        client.apiextensions().v1().customResourceDefinitions().withName(name).delete();
      }
    }
    for (String name : names) {
      client.apiextensions().v1().customResourceDefinitions().withName(name)
          .waitUntilCondition(Objects::isNull, WAIT_SECONDS, TimeUnit.SECONDS);
    }
  }

  private static void awaitStorage(KubernetesClient client, CustomResourceDefinition crd) {
    var context = new ResourceDefinitionContext.Builder().withGroup(crd.getSpec().getGroup())
        .withVersion(crd.getSpec().getVersions().stream().filter(v -> Boolean.TRUE.equals(v.getStorage()))
            .findFirst().orElse(crd.getSpec().getVersions().getFirst()).getName())
        .withPlural(crd.getSpec().getNames().getPlural())
        .withNamespaced("Namespaced".equals(crd.getSpec().getScope())).build();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
    while (true) {
      try {
        client.genericKubernetesResources(context).inAnyNamespace().list();
        return;
      } catch (KubernetesClientException e) {
        if (System.nanoTime() > deadline) {
          throw e;
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw e;
        }
      }
    }
  }
}
