package dev.modelplane.operator.llmkube.isvc;

import static dev.modelplane.operator.llmkube.isvc.Plans.HTTPS_MODEL;
import static dev.modelplane.operator.llmkube.isvc.Plans.PVC_MODEL;
import static dev.modelplane.operator.llmkube.isvc.Plans.plan;
import static dev.modelplane.operator.llmkube.isvc.Plans.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import dev.modelplane.operator.OperatorSettings;
import dev.modelplane.operator.TestObjects;
import dev.modelplane.operator.modelsource.CacheKey;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import org.junit.jupiter.api.Test;

/** Effects of the spec fields added after the seed: suspend, modelCache, draft models, pod pass-throughs. */
class NewerFieldsBuilderTest {

  @Test
  void suspendHoldsZeroPodsWithoutAnHpaAndKeepsReplicas() {
    ServingPlan p = plan("modelRef: m\nsuspend: true\nreplicas: 2\nautoscaling: {maxReplicas: 4}", PVC_MODEL);
    IsvcObjects objects = IsvcObjects.build(p, 3);
    assertThat(objects.deployment().getSpec().getReplicas()).isZero();
    assertThat(objects.hpa()).isNull();
    assertThat(p.replicas()).isEqualTo(2);
    ServingPlan lifted = plan("modelRef: m\nreplicas: 2\nautoscaling: {maxReplicas: 4}", PVC_MODEL);
    assertThat(IsvcObjects.build(lifted, 0).deployment().getSpec().getReplicas()).isEqualTo(2);
  }

  @Test
  void aUserCacheClaimIsMountedNotCreated() {
    ServingPlan p = plan("modelRef: m\nmodelCache: {claimName: team-cache}", HTTPS_MODEL);
    IsvcObjects objects = IsvcObjects.build(p, null);
    assertThat(objects.cacheClaim()).isNull();
    PodSpec pod = objects.deployment().getSpec().getTemplate().getSpec();
    assertThat(pod.getVolumes().getFirst().getPersistentVolumeClaim().getClaimName()).isEqualTo("team-cache");
    assertThat(pod.getInitContainers()).extracting("name").containsExactly("model-cache-prep", "model-downloader");
  }

  @Test
  void ephemeralCacheIsASizedEmptyDirWithEphemeralStorage() {
    PodSpec pod = pod("""
        modelRef: m
        modelCache: {persistence: Ephemeral}
        resources: {ephemeralStorage: 40Gi}
        """, HTTPS_MODEL);
    assertThat(pod.getVolumes().getFirst().getEmptyDir().getSizeLimit()).isEqualTo(new Quantity("40Gi"));
    assertThat(pod.getInitContainers()).extracting("name").containsExactly("model-downloader");
    Container c = pod.getContainers().getFirst();
    assertThat(c.getResources().getRequests()).containsEntry("ephemeral-storage", new Quantity("40Gi"));
    assertThat(c.getResources().getLimits()).containsEntry("ephemeral-storage", new Quantity("40Gi"));
    assertThat(IsvcObjects.build(plan("modelRef: m\nmodelCache: {persistence: Ephemeral}", HTTPS_MODEL), null)
        .cacheClaim()).isNull();
  }

  @Test
  void partitionedGpusRequestTheMigProfile() {
    PodSpec pod = pod("modelRef: m\nresources: {gpu: 1, gpuSharing: {mode: partitioned, profile: 3g.40gb}}",
        PVC_MODEL);
    assertThat(pod.getContainers().getFirst().getResources().getLimits())
        .containsExactly(entry("nvidia.com/mig-3g.40gb", new Quantity("1")));
    assertThat(pod.getTolerations().getFirst().getKey()).isEqualTo("nvidia.com/gpu");
    assertThat(pod("modelRef: m\nresources: {gpu: 1, gpuSharing: {mode: shared, memoryLimitGiB: 8}}", PVC_MODEL)
        .getContainers().getFirst().getResources().getLimits()).containsOnlyKeys("nvidia.com/gpu");
  }

  @Test
  void nodePortOnlyForExposedServiceTypes() {
    assertThat(IsvcServiceBuilder.build(plan("modelRef: m\nendpoint: {type: NodePort, nodePort: 30080}", PVC_MODEL))
        .getSpec().getPorts().getFirst().getNodePort()).isEqualTo(30080);
    assertThat(IsvcServiceBuilder.build(plan("modelRef: m\nendpoint: {nodePort: 30080}", PVC_MODEL))
        .getSpec().getPorts().getFirst().getNodePort()).isNull();
  }

  @Test
  void podPassThroughs() {
    Deployment d = Plans.deployment("""
        modelRef: m
        revisionHistoryLimit: 3
        affinity:
          nodeAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
              nodeSelectorTerms: [{matchExpressions: [{key: pool, operator: In, values: [gpu]}]}]
        topologySpreadConstraints:
          - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: DoNotSchedule}
        extraVolumes: [{name: kernels, emptyDir: {}}]
        extraVolumeMounts: [{name: kernels, mountPath: /var/cache/kernels}]
        disruption: {protectAlways: true}
        """, PVC_MODEL);
    assertThat(d.getSpec().getRevisionHistoryLimit()).isEqualTo(3);
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getAffinity().getNodeAffinity()).isNotNull();
    assertThat(pod.getTopologySpreadConstraints()).singleElement()
        .satisfies(t -> assertThat(t.getTopologyKey()).isEqualTo("kubernetes.io/hostname"));
    assertThat(pod.getVolumes()).extracting("name").containsExactly("model-source", "kernels", "modelplane-home");
    assertThat(pod.getContainers().getFirst().getVolumeMounts()).extracting("mountPath")
        .containsExactly("/model-source", "/var/cache/kernels", "/home/modelplane");
    assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("karpenter.sh/do-not-disrupt", "true");
    assertThat(Plans.deployment("""
        modelRef: m
        disruption: {protectAlways: true}
        podAnnotations: {karpenter.sh/do-not-disrupt: "false"}
        """, PVC_MODEL).getSpec().getTemplate().getMetadata().getAnnotations())
        .containsEntry("karpenter.sh/do-not-disrupt", "false");
  }

  @Test
  void aDraftModelIsStagedBesideTheMainModel() {
    String draftSource = "https://example.com/Llama-3.2-1B-Q8_0.gguf";
    ServingPlan p = ServingPlan.of(TestObjects.isvc("modelRef: m\nspeculativeDecoding: {type: draft, "
        + "draftModelRef: d}"), TestObjects.model(HTTPS_MODEL), TestObjects.model("d", "source: " + draftSource
        + "\nsourceSecretRef: {name: draft-creds}\n"), OperatorSettings.defaults());
    PodSpec pod = IsvcDeploymentBuilder.build(p, null).getSpec().getTemplate().getSpec();
    String draftPath = "/models/" + CacheKey.of(draftSource) + "/Llama-3.2-1B-Q8_0.gguf";
    Container downloader = pod.getInitContainers().get(1);
    assertThat(downloader.getEnv().get(3).getValue()).endsWith("\n" + draftPath + " " + draftSource);
    assertThat(downloader.getEnvFrom()).extracting(e -> e.getSecretRef().getName()).containsExactly("draft-creds");
    assertThat(pod.getContainers().getFirst().getArgs()).containsSequence("-md", draftPath);
  }

  @Test
  void aDraftModelOnAClaimIsMountedSeparately() {
    ServingPlan p = ServingPlan.of(TestObjects.isvc("modelRef: m\nspeculativeDecoding: {type: draft-eagle3, "
        + "draftModelRef: d}"), TestObjects.model(PVC_MODEL), TestObjects.model("d", "source: pvc://drafts/e3.gguf\n"),
        OperatorSettings.defaults());
    PodSpec pod = IsvcDeploymentBuilder.build(p, null).getSpec().getTemplate().getSpec();
    assertThat(pod.getVolumes()).extracting("name").containsExactly("model-source", "draft-source",
        "modelplane-home");
    assertThat(pod.getVolumes().get(1).getPersistentVolumeClaim().getClaimName()).isEqualTo("drafts");
    assertThat(pod.getContainers().getFirst().getArgs()).containsSequence("--spec-type", "draft-eagle3", "-md",
        "/draft-source/e3.gguf");
  }
}
