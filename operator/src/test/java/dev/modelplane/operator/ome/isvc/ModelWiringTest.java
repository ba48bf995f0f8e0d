package dev.modelplane.operator.ome.isvc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.modelplane.api.ome.v1beta1.StorageSpec;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ModelWiringTest {
  private static final String LABEL = "models.ome.io/clusterbasemodel.llama";

  private static PodSpec pod(int gpus) {
    Container main = new ContainerBuilder().withName("ome-container").withImage("vllm/vllm-openai")
        .addNewPort().withContainerPort(8080).endPort()
        .withNewResources().addToLimits("nvidia.com/gpu", new Quantity(Integer.toString(gpus))).endResources()
        .build();
    return new PodSpecBuilder().withContainers(main, new ContainerBuilder().withName("sidecar").build())
        .withNodeSelector(Map.of("pool", "gpu")).build();
  }

  private static ModelWiring.Wiring wiring(ModelLocation location, int workers) {
    return new ModelWiring.Wiring("llama", location, null, null, true, "ome-container", workers);
  }

  @Test
  void aHostDirectoryIsMountedReadOnlyAtItsOwnPathAndPodsGoWhereTheAgentSaysTheModelIsReady() {
    PodSpec in = pod(2);
    PodSpec out = ModelWiring.wire(in, wiring(new ModelLocation.HostDirectory("/raid/models/llama", LABEL), 0));
    assertThat(out.getVolumes()).singleElement().satisfies(v -> {
      assertThat(v.getName()).isEqualTo("llama");
      assertThat(v.getHostPath().getPath()).isEqualTo("/raid/models/llama");
    });
    Container main = out.getContainers().getFirst();
    assertThat(main.getVolumeMounts()).singleElement().satisfies(m -> {
      assertThat(m.getMountPath()).isEqualTo("/raid/models/llama");
      assertThat(m.getReadOnly()).isTrue();
    });
    assertThat(out.getNodeSelector()).containsEntry("pool", "gpu").containsEntry(LABEL, "Ready");
    assertThat(main.getEnv()).extracting(EnvVar::getName, EnvVar::getValue)
        .contains(org.assertj.core.groups.Tuple.tuple("MODEL_PATH", "/raid/models/llama"),
            org.assertj.core.groups.Tuple.tuple("PARALLELISM_SIZE", "2"));
    assertThat(main.getReadinessProbe().getTcpSocket().getPort().getIntVal()).isEqualTo(8080);
    assertThat(out.getContainers().get(1).getVolumeMounts()).isNullOrEmpty();
    assertThat(in.getVolumes()).as("the input is not changed").isNullOrEmpty();
  }

  @Test
  void parallelismCountsEveryPodOfAMultiNodeReplica() {
    PodSpec multi = ModelWiring.wire(pod(8), wiring(new ModelLocation.HostDirectory("/m", LABEL), 1));
    assertThat(multi.getContainers().getFirst().getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("PARALLELISM_SIZE");
      assertThat(e.getValue()).isEqualTo("16");
    });
    PodSpec cpu = ModelWiring.wire(pod(0), wiring(new ModelLocation.HostDirectory("/m", LABEL), 1));
    assertThat(cpu.getContainers().getFirst().getEnv()).noneMatch(e -> e.getName().equals("PARALLELISM_SIZE"));
  }

  @Test
  void valuesTheRuntimeAlreadySetAreKept() {
    PodSpec in = pod(1);
    Container main = in.getContainers().getFirst();
    main.setEnv(new java.util.ArrayList<>(java.util.List.of(new EnvVar("MODEL_PATH", "/custom", null))));
    main.setReadinessProbe(new io.fabric8.kubernetes.api.model.ProbeBuilder().withNewHttpGet().withPath("/health")
        .withNewPort(8080).endHttpGet().build());
    PodSpec out = ModelWiring.wire(in, wiring(new ModelLocation.HostDirectory("/m", LABEL), 0));
    assertThat(out.getContainers().getFirst().getEnv()).filteredOn(e -> e.getName().equals("MODEL_PATH"))
        .singleElement().extracting(EnvVar::getValue).isEqualTo("/custom");
    assertThat(out.getContainers().getFirst().getReadinessProbe().getHttpGet().getPath()).isEqualTo("/health");
  }

  @Test
  void aClaimIsMountedWithItsSubPathAtTheStandardPathWithoutANodeSelector() {
    PodSpec out = ModelWiring.wire(pod(1), wiring(new ModelLocation.Claim("models", "llama/8b"), 0));
    assertThat(out.getVolumes()).singleElement().satisfies(v -> {
      assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("models");
      assertThat(v.getPersistentVolumeClaim().getReadOnly()).isTrue();
    });
    assertThat(out.getContainers().getFirst().getVolumeMounts()).singleElement().satisfies(m -> {
      assertThat(m.getMountPath()).isEqualTo("/opt/ml/model");
      assertThat(m.getSubPath()).isEqualTo("llama/8b");
    });
    assertThat(out.getNodeSelector()).containsOnlyKeys("pool");
  }

  @Test
  void theRouterGetsAClaimsVolumeButNoHostPathNoMountAndNoModelEnvironment() {
    PodSpec out = ModelWiring.wire(pod(0), new ModelWiring.Wiring("llama",
        new ModelLocation.HostDirectory("/m", LABEL), null, null, false, "ome-container", 0));
    assertThat(out.getVolumes()).as("a hostPath volume would keep the router from restricted pod security")
        .isNullOrEmpty();
    assertThat(out.getNodeSelector()).containsKey(LABEL);
    assertThat(out.getContainers().getFirst().getVolumeMounts()).isNullOrEmpty();
    assertThat(out.getContainers().getFirst().getEnv()).isNullOrEmpty();
    PodSpec claim = ModelWiring.wire(pod(0), new ModelWiring.Wiring("llama",
        new ModelLocation.Claim("models", ""), null, null, false, "ome-container", 0));
    assertThat(claim.getVolumes()).singleElement().satisfies(v -> assertThat(v.getPersistentVolumeClaim()).isNotNull());
    assertThat(claim.getContainers().getFirst().getVolumeMounts()).isNullOrEmpty();
  }

  @Test
  void anAdapterIsMountedBesideTheModelAndBothNodeLabelsAreRequired() {
    PodSpec out = ModelWiring.wire(pod(1), new ModelWiring.Wiring("llama",
        new ModelLocation.HostDirectory("/m", LABEL), new ModelLocation.HostDirectory("/a", "models.ome.io/ftw.x"),
        "support", true, "ome-container", 0));
    assertThat(out.getVolumes()).extracting(v -> v.getName()).containsExactly("llama", "adapter-support");
    assertThat(out.getContainers().getFirst().getVolumeMounts()).extracting(m -> m.getMountPath())
        .containsExactly("/m", "/opt/ml/adapters/support");
    assertThat(out.getNodeSelector()).containsEntry(LABEL, "Ready").containsEntry("models.ome.io/ftw.x", "Ready");
  }

  @Test
  void locationsFollowTheStorageScheme() {
    assertThat(ModelLocation.of(storage("pvc://models/llama", null), "llm", "spec.storage", LABEL, null))
        .isEqualTo(new ModelLocation.Claim("models", "llama"));
    assertThat(ModelLocation.of(storage("pvc://llm:models/llama", null), "llm", "spec.storage", LABEL, null))
        .isEqualTo(new ModelLocation.Claim("models", "llama"));
  }

  @Test
  void aSpecPathIsNeverMountedWithoutADecidedDirectory() {
    // Before, the spec's path was mounted as is when no directory was decided.
    assertThatThrownBy(() -> ModelLocation.of(storage("local:///data/llama", null), "llm", "spec.storage", LABEL,
        null)).hasMessageStartingWith("spec.storage.storageUri: local:// models have no directory on the node");
    assertThatThrownBy(() -> ModelLocation.of(storage("oci://n/ns/b/bucket/o/llama", "/etc"), "llm", "spec.storage",
        LABEL, null)).hasMessage("spec.storage.storageUri: oci:// models have no directory on the node the operator may "
            + "mount, so no node directory is mounted");
  }

  @Test
  void theDecidedDirectoryIsWhatIsMounted() {
    assertThat(ModelLocation.of(storage("hf://meta/llama", null), "llm", "spec.storage", LABEL,
        "/raid/models/llm/llama")).isEqualTo(new ModelLocation.HostDirectory("/raid/models/llm/llama", LABEL));
    assertThat(ModelLocation.of(storage("local:///raid/models/llm/./llama/", null), "llm", "spec.storage", LABEL,
        "/raid/models/llm/llama")).isEqualTo(new ModelLocation.HostDirectory("/raid/models/llm/llama", LABEL));
  }

  @Test
  void locationsThatCannotBeMountedAreExplained() {
    assertThatThrownBy(() -> ModelLocation.of(storage("pvc://other:models/llama", null), "llm", "spec.storage",
        LABEL, null)).hasMessage("spec.storage.storageUri: the claim models is in namespace other, but a pod can only "
            + "mount claims of its own namespace (llm)");
  }

  @Test
  void aVendorModelIsInItsImageAndNothingIsMounted() {
    assertThat(ModelLocation.of(storage("vendor://meta/llm/llama", null), "llm", "spec.storage", LABEL, null))
        .isEqualTo(new ModelLocation.InImage("/llama"));
    ModelLocation image = ModelLocation.of(storage("vendor://meta/llm/llama", "/models/llama"), "llm",
        "spec.storage", LABEL, null);
    assertThat(image).isEqualTo(new ModelLocation.InImage("/models/llama"));
    PodSpec pod = new PodSpecBuilder().addNewContainer().withName("ome-container").withImage("nim").endContainer()
        .build();
    PodSpec wired = ModelWiring.wire(pod, new ModelWiring.Wiring("llama", image, null, null, true, "ome-container",
        0));
    assertThat(wired.getVolumes()).isEmpty();
    assertThat(wired.getNodeSelector()).isNull();
    assertThat(wired.getContainers().getFirst().getVolumeMounts()).isEmpty();
    assertThat(wired.getContainers().getFirst().getEnv()).extracting(e -> e.getName() + "=" + e.getValue())
        .contains("MODEL_PATH=/models/llama");
  }

  private static StorageSpec storage(String uri, String path) {
    return new StorageSpec(path, null, null, null, uri, null, null, null);
  }

  @Test
  void gpuCountsAreReadWithoutExpandingHugeExponents() {
    assertThat(ModelWiring.count(new Quantity("4"))).isEqualTo(4);
    assertThat(ModelWiring.count(new Quantity("2k"))).isEqualTo(2000);
    assertThat(ModelWiring.count(new Quantity("1e3"))).isEqualTo(1000);
    assertThat(ModelWiring.count(new Quantity("2E"))).isEqualTo(2_000_000_000_000_000_000L);
    assertThat(ModelWiring.count(new Quantity("1e99999999"))).isEqualTo(Long.MAX_VALUE);
    assertThat(ModelWiring.count(new Quantity("0.5"))).isEqualTo(1);
    assertThat(ModelWiring.count(new Quantity("-3"))).isZero();
    Container hostile = new ContainerBuilder().withName("engine").withNewResources()
        .addToLimits("nvidia.com/gpu", new Quantity("9e99999999")).endResources().build();
    assertThat(ModelWiring.gpus(hostile)).isEqualTo(Long.MAX_VALUE);
  }
}
