package dev.modelplane.operator.llmkube.isvc;

import static dev.modelplane.operator.llmkube.isvc.Plans.GPU_MODEL;
import static dev.modelplane.operator.llmkube.isvc.Plans.HTTPS_MODEL;
import static dev.modelplane.operator.llmkube.isvc.Plans.PVC_MODEL;
import static dev.modelplane.operator.llmkube.isvc.Plans.deployment;
import static dev.modelplane.operator.llmkube.isvc.Plans.modelVolumes;
import static dev.modelplane.operator.llmkube.isvc.Plans.plan;
import static dev.modelplane.operator.llmkube.isvc.Plans.pod;
import static dev.modelplane.operator.llmkube.isvc.Plans.server;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.modelplane.api.llmkube.v1alpha1.Model;
import dev.modelplane.api.llmkube.v1alpha1.ModelStatus;
import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.common.SecurityDefaults;
import dev.modelplane.operator.llmkube.ModelStaging;
import dev.modelplane.operator.modelsource.CacheKey;
import dev.modelplane.operator.modelsource.SourceFingerprint;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IsvcDeploymentBuilderTest {
  private static final String KEY = CacheKey.of("https://example.com/repo/resolve/main/llama-Q4_K_M.gguf");

  @Test
  void metadataLabelsAndMinimalSelector() {
    Deployment d = deployment("modelRef: m\nruntime: vllm", PVC_MODEL);
    assertThat(d.getMetadata().getName()).isEqualTo("svc");
    assertThat(d.getMetadata().getNamespace()).isEqualTo("ns");
    assertThat(d.getMetadata().getLabels()).containsExactly(entry("app", "svc"),
        entry("inference.llmkube.dev/service", "svc"), entry("inference.llmkube.dev/model", "m"),
        entry("inference.llmkube.dev/runtime", "vllm"), entry("app.kubernetes.io/managed-by", "modelplane"));
    assertThat(d.getSpec().getSelector().getMatchLabels()).containsExactly(entry("app", "svc"),
        entry("inference.llmkube.dev/service", "svc"));
    assertThat(d.getMetadata().getOwnerReferences()).isEmpty();
  }

  @Test
  void replicasDefaultToOneAndFollowTheSpec() {
    assertThat(deployment("modelRef: m", PVC_MODEL).getSpec().getReplicas()).isEqualTo(1);
    assertThat(deployment("modelRef: m\nreplicas: 3", PVC_MODEL).getSpec().getReplicas()).isEqualTo(3);
    assertThat(deployment("modelRef: m\nreplicas: 0", PVC_MODEL).getSpec().getReplicas()).isZero();
  }

  @Test
  void anHpaOwnedReplicaCountIsKept() {
    ServingPlan scaled = plan("modelRef: m\nreplicas: 1\nautoscaling: {maxReplicas: 5}", PVC_MODEL);
    assertThat(IsvcDeploymentBuilder.build(scaled, 4).getSpec().getReplicas()).isEqualTo(4);
    assertThat(IsvcDeploymentBuilder.build(scaled, null).getSpec().getReplicas()).isEqualTo(1);
    ServingPlan manual = plan("modelRef: m\nreplicas: 2", PVC_MODEL);
    assertThat(IsvcDeploymentBuilder.build(manual, 4).getSpec().getReplicas()).isEqualTo(2);
    ServingPlan stopped = plan("modelRef: m\nreplicas: 0\nautoscaling: {maxReplicas: 5}", PVC_MODEL);
    assertThat(IsvcDeploymentBuilder.build(stopped, 4).getSpec().getReplicas()).isZero();
  }

  @Test
  void gpuPodsAreRecreatedNotRolled() {
    assertThat(deployment("modelRef: m", GPU_MODEL).getSpec().getStrategy().getType()).isEqualTo("Recreate");
    assertThat(deployment("modelRef: m", HTTPS_MODEL).getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
    assertThat(deployment("modelRef: m\nresources: {gpu: 2}", HTTPS_MODEL).getSpec().getStrategy().getType())
        .isEqualTo("Recreate");
  }

  @Test
  void podLabelsMergeWithOperatorKeysWinning() {
    Deployment d = deployment("""
        modelRef: m
        podLabels: {team: assistants, app: hijack}
        podAnnotations: {cost-center: ml}
        """, PVC_MODEL);
    assertThat(d.getSpec().getTemplate().getMetadata().getLabels()).contains(entry("team", "assistants"),
        entry("app", "svc"), entry("inference.llmkube.dev/service", "svc"));
    assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations()).containsExactly(entry("cost-center", "ml"));
  }

  @Test
  void scrapeAnnotationsWhenAskedAndTheUserWins() {
    OperatorSettings settings = OperatorSettings.defaults().withEmitScrapeAnnotations(true);
    Deployment d = IsvcDeploymentBuilder.build(plan("""
        modelRef: m
        runtime: vllm
        podAnnotations: {prometheus.io/path: /custom}
        """, PVC_MODEL, settings), null);
    assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations()).containsExactly(
        entry("prometheus.io/scrape", "true"), entry("prometheus.io/port", "8000"),
        entry("prometheus.io/path", "/custom"));
  }

  @Test
  void podSettingsPassThrough() {
    PodSpec pod = pod("""
        modelRef: m
        imagePullSecrets: [{name: registry-credentials}]
        nodeSelector: {nvidia.com/gpu.product: NVIDIA-L4}
        runtimeClassName: nvidia
        tolerations:
          - {key: cloud.google.com/gke-spot, operator: Equal, value: "true", effect: NoSchedule}
        """, GPU_MODEL);
    assertThat(pod.getImagePullSecrets()).extracting("name").containsExactly("registry-credentials");
    assertThat(pod.getNodeSelector()).containsExactly(entry("nvidia.com/gpu.product", "NVIDIA-L4"));
    assertThat(pod.getRuntimeClassName()).isEqualTo("nvidia");
    assertThat(pod.getTolerations()).hasSize(2);
    assertThat(pod.getTolerations().get(0).getKey()).isEqualTo("nvidia.com/gpu");
    assertThat(pod.getTolerations().get(0).getOperator()).isEqualTo("Equal");
    assertThat(pod.getTolerations().get(0).getValue()).isEqualTo("present");
    assertThat(pod.getTolerations().get(0).getEffect()).isEqualTo("NoSchedule");
    assertThat(pod.getTolerations().get(1).getKey()).isEqualTo("cloud.google.com/gke-spot");
  }

  @Test
  void cpuPodsGetNoGpuTolerationButKeepTheirOwn() {
    PodSpec pod = pod("modelRef: m\ntolerations: [{key: spot, operator: Exists}]\nnodeSelector: {pool: cpu}",
        HTTPS_MODEL);
    assertThat(pod.getTolerations()).extracting("key").containsExactly("spot");
    assertThat(pod.getNodeSelector()).containsExactly(entry("pool", "cpu"));
  }

  @Test
  void priorityClassFromTheTierOrTheOverride() {
    assertThat(pod("modelRef: m", PVC_MODEL).getPriorityClassName()).isEqualTo("llmkube-normal");
    assertThat(pod("modelRef: m\npriority: critical", PVC_MODEL).getPriorityClassName())
        .isEqualTo("llmkube-critical");
    assertThat(pod("modelRef: m\npriority: batch\npriorityClassName: team-gold", PVC_MODEL).getPriorityClassName())
        .isEqualTo("team-gold");
  }

  @Test
  void secureDefaultsWhenNoSecurityContextIsGiven() {
    PodSpec pod = pod("modelRef: m", HTTPS_MODEL);
    assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(102L);
    assertThat(pod.getSecurityContext().getFsGroupChangePolicy()).isEqualTo("OnRootMismatch");
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(1000L);
    assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(1000L);
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    Container c = pod.getContainers().getFirst();
    assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(c.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(c.getEnv()).contains(new EnvVar("HOME", SecurityDefaults.HOME_PATH, null));
    assertThat(c.getVolumeMounts()).anySatisfy(m -> assertThat(m.getMountPath())
        .isEqualTo(SecurityDefaults.HOME_PATH));
    for (Container init : pod.getInitContainers()) {
      assertThat(init.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
      assertThat(init.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
      assertThat(init.getSecurityContext().getRunAsNonRoot()).as(init.getName()).isTrue();
      assertThat(init.getSecurityContext().getRunAsUser()).as(init.getName()).isNull();
    }
  }

  @Test
  void theDefaultUserAndGroupsComeFromTheSettings() {
    OperatorSettings settings = OperatorSettings.builder().defaultRunAsUser(4242).defaultRunAsGroup(4343)
        .defaultFsGroup(4444).build();
    PodSpec pod = Plans.pod("modelRef: m", HTTPS_MODEL, settings);
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(4242L);
    assertThat(pod.getSecurityContext().getRunAsGroup()).isEqualTo(4343L);
    assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(4444L);
  }

  @Test
  void theUsersSecurityContextsAreMergedOverTheDefaults() {
    PodSpec pod = pod("""
        modelRef: m
        podSecurityContext: {runAsUser: 2000, fsGroup: 1000680000}
        securityContext: {readOnlyRootFilesystem: true, capabilities: {add: [NET_BIND_SERVICE]}}
        """, HTTPS_MODEL);
    assertThat(pod.getSecurityContext().getFsGroup()).isEqualTo(1000680000L);
    assertThat(pod.getSecurityContext().getRunAsUser()).isEqualTo(2000L);
    assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
    assertThat(pod.getSecurityContext().getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    SecurityContext server = pod.getContainers().getFirst().getSecurityContext();
    assertThat(server.getReadOnlyRootFilesystem()).isTrue();
    assertThat(server.getAllowPrivilegeEscalation()).isFalse();
    assertThat(server.getCapabilities().getAdd()).containsExactly("NET_BIND_SERVICE");
    assertThat(server.getCapabilities().getDrop()).containsExactly("ALL");
  }

  @Test
  void theCachePrepOnlyChecksThatTheCacheIsWritable() {
    Container prep = pod("modelRef: m", HTTPS_MODEL).getInitContainers().getFirst();
    assertThat(prep.getName()).isEqualTo("model-cache-prep");
    assertThat(prep.getCommand().get(2)).contains("touch \"$probe\"").doesNotContain("chown");
    assertThat(prep.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
  }

  @Test
  void resourcesCpuMemoryAndGpuLimit() {
    Container c = server("modelRef: m\nresources: {cpu: \"4\", memory: 16Gi}", GPU_MODEL);
    assertThat(c.getResources().getRequests()).containsExactly(entry("cpu", new Quantity("4")),
        entry("memory", new Quantity("16Gi")));
    assertThat(c.getResources().getLimits()).containsExactly(entry("nvidia.com/gpu", new Quantity("1")));
  }

  @Test
  void hostMemoryWinsOverMemory() {
    Container c = server("modelRef: m\nresources: {memory: 16Gi, hostMemory: 96Gi}", HTTPS_MODEL);
    assertThat(c.getResources().getRequests()).containsExactly(entry("memory", new Quantity("96Gi")));
    assertThat(c.getResources().getLimits()).isNullOrEmpty();
  }

  @Test
  void gpuResourceNamesPerVendor() {
    String amd = PVC_MODEL + "hardware:\n  gpu: {count: 2, vendor: amd}\n";
    String vulkan = PVC_MODEL + "hardware:\n  accelerator: vulkan\n  gpu: {count: 1, vendor: amd, runtime: vulkan}\n";
    String intel = PVC_MODEL + "hardware:\n  gpu: {count: 1, vendor: intel}\n";
    String custom = PVC_MODEL + "hardware:\n  gpu: {count: 1, resourceName: nvidia.com/mig-1g.10gb, "
        + "tolerationKey: gpu-pool}\n";
    assertThat(server("modelRef: m", amd).getResources().getLimits()).containsOnlyKeys("amd.com/gpu");
    assertThat(server("modelRef: m", vulkan).getResources().getLimits()).containsOnlyKeys("devic.es/dri-render");
    assertThat(server("modelRef: m", intel).getResources().getLimits()).containsOnlyKeys("gpu.intel.com/i915");
    assertThat(server("modelRef: m", custom).getResources().getLimits()).containsOnlyKeys("nvidia.com/mig-1g.10gb");
    assertThat(pod("modelRef: m", custom).getTolerations().getFirst().getKey()).isEqualTo("gpu-pool");
  }

  @Test
  void theModelsGpuCountWinsOverTheServices() {
    String two = PVC_MODEL + "hardware:\n  gpu: {count: 2}\n";
    assertThat(server("modelRef: m\nresources: {gpu: 1}", two).getResources().getLimits())
        .containsExactly(entry("nvidia.com/gpu", new Quantity("2")));
  }

  @Test
  void draClaimsInsteadOfAnExtendedResource() {
    String dra = PVC_MODEL + """
        hardware:
          gpu:
            enabled: true
            resourceClaims: [{name: gpu, resourceClaimTemplateName: single-gpu}]
        """;
    Deployment d = deployment("modelRef: m", dra);
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getResourceClaims()).extracting("name").containsExactly("gpu");
    Container c = pod.getContainers().getFirst();
    assertThat(c.getResources().getClaims()).extracting("name").containsExactly("gpu");
    assertThat(c.getResources().getLimits()).isNullOrEmpty();
    assertThat(d.getSpec().getStrategy().getType()).isEqualTo("Recreate");
  }

  @Test
  void sharedCacheClaimWithPrepAndDownloader() {
    PodSpec pod = pod("modelRef: m", HTTPS_MODEL);
    assertThat(modelVolumes(pod)).singleElement().satisfies(v -> {
      assertThat(v.getName()).isEqualTo("model-cache");
      assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("llmkube-model-cache");
    });
    assertThat(pod.getInitContainers()).extracting("name").containsExactly("model-cache-prep", "model-downloader");
    Container prep = pod.getInitContainers().getFirst();
    assertThat(prep.getImage()).isEqualTo("docker.io/curlimages/curl:8.18.0");
    assertThat(prep.getSecurityContext().getRunAsUser()).isNull();
    assertThat(prep.getSecurityContext().getCapabilities().getAdd()).isNullOrEmpty();
    Container downloader = pod.getInitContainers().get(1);
    assertThat(downloader.getEnv()).extracting("name").containsExactly("MODEL_SOURCE", "CACHE_DIR", "MODEL_PATH",
        "MODEL_FILES");
    assertThat(downloader.getEnv().get(2).getValue()).isEqualTo("/models/" + KEY + "/llama-Q4_K_M.gguf");
    assertThat(downloader.getEnv().get(3).getValue()).isEqualTo(
        "/models/" + KEY + "/llama-Q4_K_M.gguf https://example.com/repo/resolve/main/llama-Q4_K_M.gguf");
    assertThat(downloader.getVolumeMounts()).singleElement().satisfies(m -> assertThat(m.getReadOnly()).isNull());
    Container server = pod.getContainers().getFirst();
    assertThat(server.getVolumeMounts()).first().satisfies(m -> {
      assertThat(m.getMountPath()).isEqualTo("/models");
      assertThat(m.getReadOnly()).isTrue();
    });
    assertThat(server.getArgs()).containsSequence("--model", "/models/" + KEY + "/llama-Q4_K_M.gguf");
  }

  @Test
  void perServiceCacheAndEmptyDirWithoutCache() {
    OperatorSettings perService = OperatorSettings.defaults().withModelCache(
        new OperatorSettings.ModelCacheSettings(true, OperatorSettings.CacheMode.PER_SERVICE, "50Gi", "ReadWriteMany",
            "fast"));
    assertThat(pod("modelRef: m", HTTPS_MODEL, perService).getVolumes().getFirst().getPersistentVolumeClaim()
        .getClaimName()).isEqualTo("svc-model-cache");
    PodSpec noCache = pod("modelRef: m", HTTPS_MODEL,
        OperatorSettings.defaults().withModelCache(OperatorSettings.ModelCacheSettings.disabled()));
    assertThat(noCache.getVolumes().getFirst().getEmptyDir()).isNotNull();
    assertThat(noCache.getInitContainers()).extracting("name").containsExactly("model-downloader");
  }

  @Test
  void sha256AndSourceSecretReachTheDownloader() {
    Container downloader = pod("modelRef: m", HTTPS_MODEL + """
        sha256: ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789
        sourceSecretRef: {name: s3-creds}
        """).getInitContainers().get(1);
    assertThat(downloader.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("MODEL_FILES");
      assertThat(e.getValue()).endsWith(
          "llama-Q4_K_M.gguf abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789");
    });
    assertThat(downloader.getEnvFrom()).singleElement().satisfies(e ->
        assertThat(e.getSecretRef().getName()).isEqualTo("s3-creds"));
  }

  @Test
  void skipModelInitMeansNoInitContainersAndNoVolumes() {
    PodSpec pod = pod("modelRef: m\nskipModelInit: true", HTTPS_MODEL);
    assertThat(pod.getInitContainers()).isNullOrEmpty();
    assertThat(modelVolumes(pod)).isEmpty();
    assertThat(pod.getContainers().getFirst().getVolumeMounts()).extracting("name")
        .containsExactly(SecurityDefaults.HOME_VOLUME);
    PodSpec pvc = pod("modelRef: m\nskipModelInit: true", PVC_MODEL);
    assertThat(modelVolumes(pvc)).isEmpty();
  }

  @Test
  void runtimesWithoutModelInitDoNotDownload() {
    PodSpec tgi = pod("modelRef: m\nruntime: tgi", HTTPS_MODEL);
    assertThat(tgi.getInitContainers()).isNullOrEmpty();
    assertThat(modelVolumes(tgi)).isEmpty();
  }

  @Test
  void pvcSourceIsMountedReadOnlyWithoutInit() {
    PodSpec pod = pod("modelRef: m", PVC_MODEL);
    assertThat(pod.getInitContainers()).isNullOrEmpty();
    assertThat(modelVolumes(pod)).singleElement().satisfies(v -> {
      assertThat(v.getPersistentVolumeClaim().getClaimName()).isEqualTo("store");
      assertThat(v.getPersistentVolumeClaim().getReadOnly()).isTrue();
    });
    assertThat(pod.getContainers().getFirst().getVolumeMounts().getFirst().getMountPath()).isEqualTo("/model-source");
  }

  @Test
  void localSourceMountsItsDirectoryFromTheNode() {
    PodSpec pod = pod("modelRef: m", "source: /mnt/models/llama.gguf\n");
    assertThat(modelVolumes(pod)).singleElement().satisfies(v -> {
      assertThat(v.getHostPath().getPath()).isEqualTo("/mnt/models");
      assertThat(v.getHostPath().getType()).isEqualTo("Directory");
    });
    assertThat(pod.getContainers().getFirst().getArgs()).containsSequence("--model", "/host-model/llama.gguf");
  }

  @Test
  void aMountedSourceWithAChecksumIsVerifiedInPlaceBeforeTheServerStarts() {
    PodSpec pod = pod("modelRef: m", "source: /mnt/models/llama.gguf\nsha256: " + "ABCDEF01".repeat(8) + "\n");
    assertThat(pod.getInitContainers()).singleElement().satisfies(c -> {
      assertThat(c.getName()).isEqualTo("model-verify");
      assertThat(c.getImage()).isEqualTo("docker.io/curlimages/curl:8.18.0");
      assertThat(c.getCommand()).containsExactly("sh", "-c", ModelStaging.VERIFY_SCRIPT);
      assertThat(c.getEnv()).singleElement().satisfies(e -> {
        assertThat(e.getName()).isEqualTo("MODEL_CHECKSUMS");
        assertThat(e.getValue()).isEqualTo("abcdef01".repeat(8) + "  /host-model/llama.gguf");
      });
      assertThat(c.getVolumeMounts()).singleElement().satisfies(m -> {
        assertThat(m.getName()).isEqualTo("host-model");
        assertThat(m.getMountPath()).isEqualTo("/host-model");
        assertThat(m.getReadOnly()).isTrue();
      });
      assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
      assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    });

    PodSpec pvc = pod("modelRef: m", "source: pvc://store/models/llama.gguf\nsha256: " + "00ff".repeat(16) + "\n");
    assertThat(pvc.getInitContainers()).singleElement().satisfies(c -> assertThat(c.getEnv().getFirst().getValue())
        .isEqualTo("00ff".repeat(16) + "  /model-source/models/llama.gguf"));

    assertThat(pod("modelRef: m", "source: /mnt/models/llama.gguf\n").getInitContainers())
        .as("no checksum, nothing to verify").isNullOrEmpty();
    assertThat(pod("modelRef: m\nskipModelInit: true",
        "source: /mnt/models/llama.gguf\nsha256: " + "00ff".repeat(16) + "\n").getInitContainers())
        .as("skipModelInit").isNullOrEmpty();
  }

  @Test
  void anOnChangeModelsFingerprintIsOnThePodsSoAChangedSourceRollsThemAndIsDownloadedAgain() {
    Model model = TestObjects.model(HTTPS_MODEL + "refreshPolicy: OnChange\n");
    model.setStatus(new ModelStatus(null, null, null, null, null, null, null,
        null, null, "\"blob-1\"", 4096L, null, null));
    String token = new SourceFingerprint("\"blob-1\"", 4096L).id();
    Deployment d = IsvcDeploymentBuilder.build(
        ServingPlan.of(TestObjects.isvc("modelRef: m"), model, OperatorSettings.defaults()), null);
    assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry(IsvcDeploymentBuilder.SOURCE_FINGERPRINT, token);
    Container downloader = d.getSpec().getTemplate().getSpec().getInitContainers().stream()
        .filter(c -> c.getName().equals("model-downloader")).findFirst().orElseThrow();
    assertThat(downloader.getEnv()).anySatisfy(e -> {
      assertThat(e.getName()).isEqualTo("MODEL_FILES");
      assertThat(e.getValue()).endsWith("/llama-Q4_K_M.gguf https://example.com/repo/resolve/main/llama-Q4_K_M.gguf - "
          + token);
    });

    assertThat(deployment("modelRef: m", HTTPS_MODEL).getSpec().getTemplate().getMetadata().getAnnotations())
        .as("IfNotPresent").doesNotContainKey(IsvcDeploymentBuilder.SOURCE_FINGERPRINT);
  }

  @Test
  void huggingFaceIdsAreNotDownloadedByTheInitContainer() {
    PodSpec pod = pod("modelRef: m\nruntime: vllm", "source: Qwen/Qwen3-8B\n");
    assertThat(pod.getInitContainers()).isNullOrEmpty();
    assertThat(pod.getContainers().getFirst().getArgs().getFirst()).isEqualTo("Qwen/Qwen3-8B");
  }

  @Test
  void multiFileHuggingFaceSourcesStageEveryFileAndTheProjector() {
    Container downloader = pod("modelRef: m", """
        source: hf://unsloth/Qwen3-VL-8B-Instruct-GGUF@abc123
        files: [Qwen3-VL-8B-Instruct-Q4_K_M.gguf]
        mmproj: mmproj-F16.gguf
        """).getInitContainers().get(1);
    String base = "https://huggingface.co/unsloth/Qwen3-VL-8B-Instruct-GGUF/resolve/abc123/";
    String dir = "/models/" + CacheKey.of("hf://unsloth/Qwen3-VL-8B-Instruct-GGUF@abc123") + "/";
    assertThat(downloader.getEnv().get(3).getValue()).isEqualTo(
        dir + "Qwen3-VL-8B-Instruct-Q4_K_M.gguf " + base + "Qwen3-VL-8B-Instruct-Q4_K_M.gguf\n"
            + dir + "mmproj-F16.gguf " + base + "mmproj-F16.gguf");
  }

  @Test
  void vllmPodsHaveNoServiceLinks() {
    assertThat(pod("modelRef: m\nruntime: vllm", PVC_MODEL).getEnableServiceLinks()).isFalse();
    assertThat(pod("modelRef: m", PVC_MODEL).getEnableServiceLinks()).isNull();
  }

  @Test
  void runtimeImagesSettingApplies() {
    OperatorSettings settings = OperatorSettings.defaults().withRuntimeImages(Map.of("vllm", "mirror/vllm:1"));
    assertThat(pod("modelRef: m\nruntime: vllm", PVC_MODEL, settings).getContainers().getFirst().getImage())
        .isEqualTo("mirror/vllm:1");
  }
}
