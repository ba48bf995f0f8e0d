package dev.modelplane.operator.llmkube.isvc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.llmkube.v1alpha1.InferenceServiceSpec;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Every InferenceService spec field has a test showing its effect, or a documented non-effect. When the API gains a
 * field this test fails until the map says where the new field's effect is tested.
 */
class SeedFieldCoverageTest {
  static final Map<String, String> COVERAGE = new TreeMap<>(Map.ofEntries(
      Map.entry("modelRef", "IsvcDeploymentBuilderTest.metadataLabelsAndMinimalSelector; reconciler tests"),
      Map.entry("replicas", "IsvcDeploymentBuilderTest.replicasDefaultToOneAndFollowTheSpec"),
      Map.entry("runtime", "OtherRuntimesTest.everyRuntimeHasARenderer"),
      Map.entry("image", "LlamaCppRendererTest.imageFollowsTheGpuVendorUnlessOverridden"),
      Map.entry("command", "OtherRuntimesTest.genericContainerUsesTheSpecAsGiven"),
      Map.entry("args", "OtherRuntimesTest.genericContainerUsesTheSpecAsGiven; IsvcValidatorTest"),
      Map.entry("extraArgs", "LlamaCppRendererTest.argvIsExact (typed flags named in extraArgs are skipped)"),
      Map.entry("env", "LlamaCppRendererTest.envIsRuntimeThenSpec"),
      Map.entry("containerPort", "IsvcServiceHpaPvcBuilderTest.serviceTargetsThePortTheServerListensOn"),
      Map.entry("endpoint", "IsvcServiceHpaPvcBuilderTest.serviceTypeSelectorAndName, endpointUrl; gateway: "
          + "IntegrationBuilderTest, IntegrationsIT"),
      Map.entry("resources", "IsvcDeploymentBuilderTest.resourcesCpuMemoryAndGpuLimit, hostMemoryWinsOverMemory"),
      Map.entry("autoscaling", "IsvcServiceHpaPvcBuilderTest.hpaWithTheUsersMetrics"),
      Map.entry("contextSize", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("parallelSlots", "LlamaCppRendererTest; OtherRuntimesTest.vllmArgv (--max-num-seqs)"),
      Map.entry("batchSize", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("uBatchSize", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("flashAttention", "LlamaCppRendererTest.argvIsExact (flash attention is dropped without a GPU)"),
      Map.entry("jinja", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("cacheTypeK", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("cacheTypeV", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("cacheTypeCustomK", "LlamaCppRendererTest.argvIsExact (custom cache types win over the enum)"),
      Map.entry("cacheTypeCustomV", "LlamaCppRendererTest.argvIsExact (custom cache types win over the enum)"),
      Map.entry("moeCPUOffload", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("moeCPULayers", "LlamaCppRendererTest.argvIsExact (moeCPULayers 0 emits nothing)"),
      Map.entry("noKvOffload", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("tensorOverrides", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("metadataOverrides", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("noWarmup", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("reasoningBudget", "LlamaCppRendererTest.argvIsExact (reasoning budget 0 still emits the flag)"),
      Map.entry("reasoningBudgetMessage", "LlamaCppRendererTest.reasoningMessageWithSpacesIsOneArgument"),
      Map.entry("ropeScaling", "LlamaCppRendererTest.argvIsExact (every typed flag in order)"),
      Map.entry("vllmConfig", "OtherRuntimesTest.vllmArgv"),
      Map.entry("tgiConfig", "OtherRuntimesTest.tgiArgv, tgiContainer"),
      Map.entry("personaPlexConfig", "OtherRuntimesTest.personaPlexContainer"),
      Map.entry("skipModelInit", "IsvcDeploymentBuilderTest.skipModelInitMeansNoInitContainersAndNoVolumes"),
      Map.entry("probeOverrides", "LlamaCppRendererTest.probeOverridesReplaceWholeProbes"),
      Map.entry("priority", "IsvcDeploymentBuilderTest.priorityClassFromTheTierOrTheOverride; GpuQueueTest"),
      Map.entry("priorityClassName", "IsvcDeploymentBuilderTest.priorityClassFromTheTierOrTheOverride"),
      Map.entry("evictionProtection", "no effect: only the Apple Silicon host agent reads it (docs/operator.md)"),
      Map.entry("nodeSelector", "IsvcDeploymentBuilderTest.podSettingsPassThrough, cpuPodsGetNoGpuToleration…"),
      Map.entry("tolerations", "IsvcDeploymentBuilderTest.podSettingsPassThrough"),
      Map.entry("imagePullSecrets", "IsvcDeploymentBuilderTest.podSettingsPassThrough"),
      Map.entry("runtimeClassName", "IsvcDeploymentBuilderTest.podSettingsPassThrough"),
      Map.entry("podSecurityContext", "IsvcDeploymentBuilderTest.securityContextsPassThroughAnd…"),
      Map.entry("securityContext", "IsvcDeploymentBuilderTest.securityContextsPassThroughAnd…"),
      Map.entry("podLabels", "IsvcDeploymentBuilderTest.podLabelsMergeWithOperatorKeysWinning"),
      Map.entry("podAnnotations", "IsvcDeploymentBuilderTest.podLabelsMergeWithOperatorKeysWinning"),
      Map.entry("suspend", "NewerFieldsBuilderTest.suspendHolds…; IsvcStatusAggregatorTest.suspendedWins…"),
      Map.entry("mode", "NewerRuntimesTest.llamaCppArgv (explicit modes), sglangArgv (--is-embedding)"),
      Map.entry("bindAddress", "NewerRuntimesTest.llamaCppArgv (bind address), tgiBindsTheBindAddress"),
      Map.entry("speculativeDecoding", "NewerRuntimesTest.llamaCppArgv; NewerFieldsBuilderTest.aDraftModel…"),
      Map.entry("sglangConfig", "NewerRuntimesTest.sglangArgv, sglangContainer"),
      Map.entry("modelCache", "NewerFieldsBuilderTest.aUserCacheClaim…, ephemeralCache…"),
      Map.entry("rolloutPolicy", "RolloutGateTest; RolloutIdleIT.aTemplateChangeWaitsForTheBusyServer…"),
      Map.entry("revisionHistoryLimit", "NewerFieldsBuilderTest.podPassThroughs"),
      Map.entry("maxPodLifetimeSeconds", "PodRecyclerTest; GpuSchedulingIT.expiredPodsAreRecycledOneAtATime"),
      Map.entry("maxPodLifetimeIdleTimeoutSeconds", "RolloutIdleIT.anExpiredPodIsRecycledOnlyOnceItsServer…; "
          + "IsvcValidatorTest.newerFields (IgnoredField without waitForIdle)"),
      Map.entry("disruption", "NewerFieldsBuilderTest.podPassThroughs (protectAlways); StartupProtectionTest and "
          + "GpuSchedulingIT.podsCarryDoNotDisruptUntilTheyAreReadyWithoutARollout (protectStartup)"),
      Map.entry("slo", "IntegrationBuilderTest (objectives); IntegrationsIT (SLOReady, ownership)"),
      Map.entry("affinity", "NewerFieldsBuilderTest.podPassThroughs"),
      Map.entry("topologySpreadConstraints", "NewerFieldsBuilderTest.podPassThroughs"),
      Map.entry("extraVolumes", "NewerFieldsBuilderTest.podPassThroughs"),
      Map.entry("extraVolumeMounts", "NewerFieldsBuilderTest.podPassThroughs"),
      Map.entry("hotCacheMaxSize", "no effect: only the Apple Silicon host agent's oMLX reads it"),
      Map.entry("pagedSSDCacheDir", "no effect: only the Apple Silicon host agent's oMLX reads it"),
      Map.entry("pagedSSDCacheMaxSize", "no effect: only the Apple Silicon host agent's oMLX reads it"),
      Map.entry("turboQuantBits", "no effect: only the Apple Silicon host agent's oMLX reads it")));

  @Test
  void everySpecFieldIsCovered() {
    assertThat(Arrays.stream(InferenceServiceSpec.class.getRecordComponents()).map(RecordComponent::getName))
        .containsExactlyInAnyOrderElementsOf(COVERAGE.keySet());
  }
}
