package dev.modelplane.router.config;

import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.router.TestEndpoints;
import dev.modelplane.router.flowcontrol.ConcurrencyDetector;
import dev.modelplane.router.flowcontrol.FlowControlConfig;
import dev.modelplane.router.flowcontrol.UsageLimitPolicies;
import dev.modelplane.router.flowcontrol.UsageLimitPolicy;
import dev.modelplane.router.flowcontrol.UtilizationDetector;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.prefix.PrefixCacheScorer;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.SchedulerProfile;
import dev.modelplane.router.scheduling.WeightedScorer;
import dev.modelplane.router.scheduling.plugins.MaxScorePicker;
import dev.modelplane.router.scheduling.plugins.SingleProfileHandler;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {
  private final ConfigLoader loader = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null);

  @Test
  void defaultConfigEqualsGies() {
    SchedulingSetup setup = loader.load(ConfigLoader.DEFAULT_CONFIG);
    SchedulerProfile profile = setup.scheduler().profiles().get("default");
    assertThat(profile.scorers()).extracting(ws -> ws.scorer().type() + "=" + ws.weight())
        .containsExactly("queue-scorer=2.0", "kv-cache-utilization-scorer=2.0", "prefix-cache-scorer=3.0",
            "lora-affinity-scorer=2.0");
    assertThat(profile.picker()).isInstanceOf(MaxScorePicker.class);
    assertThat(((MaxScorePicker) profile.picker()).maxNumOfEndpoints()).isEqualTo(1);
    assertThat(setup.scheduler().profileHandler()).isInstanceOf(SingleProfileHandler.class);
    assertThat(setup.prefixProducer()).isNotNull();
    assertThat(setup.lifecycle().prepareData()).contains(setup.prefixProducer());
    assertThat(setup.saturationDetector().type()).isEqualTo("utilization-detector");
    // Unlike GIE's, flow control is on unless a config turns its gate off.
    assertThat(setup.flowControl()).isEqualTo(FlowControlConfig.DEFAULT);
  }

  /** An endpoint of the given KV usage reporting the adapters running there, one adapter slot each. */
  private static Candidate endpoint(String name, double kv, String... running) {
    return new Candidate(TestEndpoints.state(name, MetricsSnapshot.of(0, kv, 0).withLora(Set.of(running), Set.of(), 1)));
  }

  private static String pick(SchedulingSetup setup, InferenceRequest request, List<Candidate> pool) {
    for (PrepareDataPlugin p : setup.lifecycle().prepareData()) {
      p.prepareRequestData(request, pool);
    }
    return setup.scheduler().scheduleUnchecked(request, pool).primary().targets().get(0).state().endpoint().id().name();
  }

  @Test
  void defaultProfileSendsAnAdapterRequestWhereItsAdapterRuns() {
    SchedulingSetup setup = loader.load(ConfigLoader.DEFAULT_CONFIG);
    // The least used cache would win on load alone; its only adapter slot is taken by another adapter, so a
    // request for sql-expert there would wait until every request of that adapter has finished.
    List<Candidate> pool = List.of(endpoint("idle-other", 0.0, "support-tone"), endpoint("busy-sql", 0.3, "sql-expert"),
        endpoint("half-other", 0.2, "support-tone"));
    assertThat(pick(setup, TestEndpoints.completion("sql-expert", "p"), pool)).isEqualTo("busy-sql");
  }

  @Test
  void defaultProfileRoutesByLoadAloneWhereNoServerReportsAdapters() {
    SchedulingSetup setup = loader.load(ConfigLoader.DEFAULT_CONFIG);
    List<Candidate> pool = List.of(endpoint("a", 0.4), endpoint("b", 0.1), endpoint("c", 0.3));
    assertThat(pick(setup, TestEndpoints.completion("base", "p"), pool)).isEqualTo("b");
  }

  @Test
  void namesDefaultToTypesAndWeightsToOne() {
    SchedulingSetup setup = loader.load("""
        plugins:
        - type: queue-scorer
        - name: kv
          type: kv-cache-utilization-scorer
        - type: weighted-random-picker
          parameters: {maxNumOfEndpoints: 2}
        schedulingProfiles:
        - name: p
          plugins:
          - pluginRef: queue-scorer
          - pluginRef: kv
            weight: 0.5
        """);
    SchedulerProfile p = setup.scheduler().profiles().get("p");
    assertThat(p.scorers()).extracting(WeightedScorer::weight).containsExactly(1.0, 0.5);
    assertThat(p.scorers().get(1).scorer().name()).isEqualTo("kv");
    // The declared picker becomes the profile's picker even though the profile does not list it.
    assertThat(p.picker().type()).isEqualTo("weighted-random-picker");
    assertThat(setup.prefixProducer()).isNull();
  }

  @Test
  void withoutProfilesEveryFilterScorerAndPickerJoinsDefault() {
    SchedulingSetup setup = loader.load("""
        plugins:
        - type: decode-filter
        - type: prefix-cache-scorer
          parameters: {blockSizeTokens: 32, autoTune: false}
        """);
    SchedulerProfile p = setup.scheduler().profiles().get("default");
    assertThat(p.filters()).extracting(f -> f.type()).containsExactly("decode-filter");
    assertThat(p.scorers()).extracting(ws -> ws.scorer()).hasOnlyElementsOfType(PrefixCacheScorer.class);
    // The implied producer inherits the legacy scorer parameters.
    ApproxPrefixCacheProducer producer = setup.prefixProducer();
    assertThat(producer).isNotNull();
    assertThat(producer.name()).isEqualTo("approx-prefix-cache-producer");
  }

  @Test
  void flowControlGateAndLimits() {
    SchedulingSetup setup = loader.load("""
        apiVersion: inference.networking.x-k8s.io/v1alpha1
        kind: EndpointPickerConfig
        featureGates: [flowControl]
        plugins:
        - type: queue-scorer
        - type: utilization-detector
          parameters: {queueDepthThreshold: 8, kvCacheUtilThreshold: 0.9, metricsStalenessThreshold: 500ms}
        saturationDetector: {pluginRef: utilization-detector}
        flowControl:
          maxBytes: 1Gi
          maxRequests: 500
          defaultRequestTTL: 30s
          defaultPriorityBand: {maxRequests: 100}
          priorityBands:
          - priority: 10
            fairnessPolicyRef: round-robin-fairness-policy
        """);
    FlowControlConfig fc = setup.flowControl();
    assertThat(fc.maxBytes()).isEqualTo(1L << 30);
    assertThat(fc.maxRequests()).isEqualTo(500);
    assertThat(fc.defaultRequestTtl()).isEqualTo(Duration.ofSeconds(30));
    assertThat(fc.bandFor(10).fairnessPolicy()).isEqualTo(FlowControlConfig.ROUND_ROBIN);
    assertThat(fc.bandFor(-1).maxRequests()).isEqualTo(100);
    UtilizationDetector detector = (UtilizationDetector) setup.saturationDetector();
    assertThat(detector.config().queueDepthThreshold()).isEqualTo(8);
    assertThat(detector.config().metricsStalenessThreshold()).isEqualTo(Duration.ofMillis(500));
    assertThat(setup.usageLimits()).isSameAs(UsageLimitPolicy.NONE);
  }

  @Test
  void flowControlIsOnByDefaultAndTheGateTakesLlmdsValueForm() {
    assertThat(loader.load("plugins: [{type: queue-scorer}]").flowControl()).isEqualTo(FlowControlConfig.DEFAULT);
    assertThat(loader.load("featureGates: [flowControl]\nplugins: []").flowControl()).isNotNull();
    assertThat(loader.load("featureGates: [flowControl=true]\nplugins: []").flowControl()).isNotNull();
    assertThat(loader.load("featureGates: [flowControl=false]\nplugins: []").flowControl()).isNull();
    assertThat(loader.load("featureGates: [' flowControl = FALSE ', dataLayer=true]\nplugins: []").flowControl())
        .isNull();
    assertThatThrownBy(() -> loader.load("featureGates: [flowControl=maybe]\nplugins: []"))
        .hasMessage("feature gate validation failed: feature gate 'flowControl' has value 'maybe', expected true or"
            + " false");
    assertThatThrownBy(() -> loader.load("featureGates: [warpDrive=false]\nplugins: []"))
        .hasMessageContaining("feature gate 'warpDrive' is unknown");
  }

  @Test
  void concurrencyDetectorAndUsageLimitPolicyByReference() {
    SchedulingSetup setup = loader.load("""
        featureGates: [flowControl]
        plugins:
        - type: concurrency-detector
          parameters: {maxConcurrency: 4}
        - name: holdback
          type: priority-holdback-policy
          parameters: {minCeiling: 0.5}
        - type: queue-scorer
        saturationDetector: {pluginRef: concurrency-detector}
        schedulingProfiles:
        - name: default
          plugins: [{pluginRef: concurrency-detector}, {pluginRef: queue-scorer}]
        flowControl: {usageLimitPolicyPluginRef: holdback}
        """);
    assertThat(setup.saturationDetector()).isInstanceOf(ConcurrencyDetector.class);
    assertThat(setup.scheduler().profiles().get("default").filters()).containsExactly(
        (ConcurrencyDetector) setup.saturationDetector());
    assertThat(setup.usageLimits()).isSameAs(setup.plugins().get("holdback"));
    // GIE's default policy name, declared without a reference, is used.
    SchedulingSetup byName = loader.load("""
        featureGates: [flowControl]
        plugins:
        - type: static-usage-limit-policy
          parameters: {threshold: 0.8}
        """);
    assertThat(byName.usageLimits()).isInstanceOf(UsageLimitPolicies.Static.class);
    assertThatThrownBy(() -> loader.load("""
        featureGates: [flowControl]
        plugins: [{type: queue-scorer}]
        flowControl: {usageLimitPolicyPluginRef: nope}
        """)).hasMessage("flow control validation failed: usageLimitPolicyPluginRef references undefined plugin "
        + "'nope'");
    assertThatThrownBy(() -> loader.load("""
        featureGates: [flowControl]
        plugins: [{type: queue-scorer}]
        flowControl: {usageLimitPolicyPluginRef: queue-scorer}
        """)).hasMessage("flowControl.usageLimitPolicyPluginRef 'queue-scorer' is of type queue-scorer; supported: "
        + "static-usage-limit-policy, priority-holdback-policy, soft-reflective-ceiling-policy");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{type: queue-scorer}]
        saturationDetector: {pluginRef: queue-scorer}
        """)).hasMessage("saturation detector 'queue-scorer' is of type queue-scorer; supported: "
        + "utilization-detector, concurrency-detector");
  }

  @Test
  void engineMappingsComeFromCoreMetricsExtractor() {
    SchedulingSetup setup = loader.load("""
        plugins:
        - type: queue-scorer
        - type: core-metrics-extractor
          parameters:
            defaultEngine: myengine
            engineConfigs:
            - name: myengine
              queuedRequestsSpec: my_queue
              kvUsageSpec: my_kv{kind=gpu}
        """);
    assertThat(setup.metricsExtractor().mappingFor(java.util.Map.of()).queued().name()).isEqualTo("my_queue");
    assertThat(setup.metricsExtractor().mappingFor(
        java.util.Map.of("inference.networking.k8s.io/engine-type", "sglang")).queued().name())
        .isEqualTo("sglang:num_queue_reqs");
  }

  @Test
  void rejectsWhatGieRejects() {
    assertThatThrownBy(() -> loader.load("""
        plugins: [{type: queue-scorer}]
        schedulingProfiles: [{name: a, plugins: [{pluginRef: nope}]}]
        """)).hasMessageContaining("references undefined plugin 'nope'");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{type: queue-scorer}]
        schedulingProfiles: [{name: a}, {name: a}]
        """)).hasMessageContaining("duplicate name 'a'");
    assertThatThrownBy(() -> loader.load("featureGates: [warpDrive]\nplugins: []"))
        .hasMessageContaining("feature gate 'warpDrive' is unknown");
    assertThatThrownBy(() -> loader.load("plugins: [{type: no-such-plugin}]"))
        .hasMessageContaining("plugin type 'no-such-plugin' not found");
    assertThatThrownBy(() -> loader.load("plugins: []\nschedulingProfile: []"))
        .hasMessageContaining("schedulingProfile");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{type: queue-scorer}, {type: max-score-picker}]
        schedulingProfiles:
        - name: a
          plugins: [{pluginRef: queue-scorer}]
        - name: b
          plugins: [{pluginRef: queue-scorer}]
        """)).hasMessageContaining("profile handler is required");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{type: prefix-cache-scorer, parameters: {autoTune: false, blockSizeTokens: 0}},
                  {type: approx-prefix-cache-producer, parameters: {autoTune: false, blockSizeTokens: 0}}]
        """)).hasMessageContaining("BlockSizeTokens must be > 0");
  }

  @Test
  void aParameterOfTheWrongTypeNamesThePluginAndTheField() {
    assertThatThrownBy(() -> loader.load("plugins: [{type: max-score-picker, parameters: {maxNumOfEndpoints: many}}]"))
        .hasMessage("plugin 'max-score-picker' (max-score-picker): parameter 'maxNumOfEndpoints' must be an integer, "
            + "got \"many\"");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{name: d, type: utilization-detector, parameters: {metricsStalenessThreshold: soon}}]
        """)).hasMessageStartingWith("plugin 'd' (utilization-detector): parameter 'metricsStalenessThreshold': ")
        .hasMessageContaining("soon");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{type: by-label, parameters: {label: role, validValues: decode}}]
        """)).hasMessageContaining("parameter 'validValues' must be a list");
  }

  @Test
  void predictedLatencyScorerIsAFilterAndAScorerWithCheckedParameters() {
    SchedulingSetup setup = loader.load("""
        plugins:
        - type: approx-prefix-cache-producer
        - type: predicted-latency-scorer
          parameters: {forgettingFactor: 0.99, defaultOutputTokens: 64}
        """);
    var profile = setup.scheduler().profiles().get("default");
    assertThat(profile.filters()).extracting(f -> f.type()).containsExactly("predicted-latency-scorer");
    assertThat(profile.scorers()).extracting(w -> w.scorer().type()).containsExactly("predicted-latency-scorer");
    assertThat(setup.lifecycle().responseComplete()).extracting(p -> p.type()).contains("predicted-latency-scorer");
    assertThatThrownBy(() -> loader.load("plugins: [{type: predicted-latency-scorer, parameters: {forgettingFactor: 2}}]"))
        .hasMessage("plugin 'predicted-latency-scorer' (predicted-latency-scorer): forgettingFactor must be in (0, 1], "
            + "got 2.0");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{name: p, type: predicted-latency-scorer, parameters: {defaultOutputTokens: 0}}]
        """)).hasMessage("plugin 'p' (predicted-latency-scorer): defaultOutputTokens must be >= 1, got 0");
    assertThatThrownBy(() -> loader.load("""
        plugins: [{name: p, type: predicted-latency-scorer, parameters: {shedSheddable: perhaps}}]
        """)).hasMessageContaining("parameter 'shedSheddable'");
  }

  @Test
  void otterScalesPrefillDecodeConfigurationLoadsUnchanged() {
    SchedulingSetup setup = loader.load(PickerConfigs.OTTERSCALE_PREFILL_DECODE.yaml());
    assertThat(setup.scheduler().profileHandler().type()).isEqualTo("pd-profile-handler");
    assertThat(setup.scheduler().profiles()).containsOnlyKeys("prefill", "decode");
    SchedulerProfile decode = setup.scheduler().profiles().get("decode");
    assertThat(decode.filters()).extracting(f -> f.type()).containsExactly("decode-filter");
    assertThat(decode.scorers()).extracting(ws -> ws.scorer().type() + "=" + ws.weight())
        .containsExactly("prefix-cache-scorer=2.0", "queue-scorer=1.0");
    assertThat(setup.plugins().get("prefill-header-handler").type()).isEqualTo("prefill-header-handler");
    assertThat(setup.prefixProducer()).isNotNull();
    assertThat(setup.config().featureGates()).contains("prepareDataPlugins");
  }

  @Test
  void otterScalesDefaultConfigurationLoadsWithGiesScorers() {
    SchedulingSetup setup = loader.load(PickerConfigs.OTTERSCALE_DEFAULT.yaml());
    SchedulerProfile profile = setup.scheduler().profiles().get("default");
    assertThat(profile.scorers()).extracting(ws -> ws.scorer().type() + "=" + ws.weight())
        .containsExactly("queue-scorer=2.0", "kv-cache-utilization-scorer=2.0", "prefix-cache-scorer=3.0");
    assertThat(profile.picker()).isInstanceOf(MaxScorePicker.class);
    assertThat(setup.scheduler().profileHandler()).isInstanceOf(SingleProfileHandler.class);
    assertThat(setup.prefixProducer()).isNotNull();
  }

  @Test
  void theOmeRoutersPrefillDecodeConfigurationLoads() {
    SchedulingSetup setup = loader.load(PickerConfigs.OME_PREFILL_DECODE.yaml());
    assertThat(setup.scheduler().profileHandler().type()).isEqualTo("disagg-profile-handler");
    assertThat(setup.scheduler().profiles()).containsOnlyKeys("prefill", "decode");
    SchedulerProfile prefill = setup.scheduler().profiles().get("prefill");
    assertThat(prefill.filters()).extracting(f -> f.type()).containsExactly("prefill-filter");
    assertThat(prefill.scorers()).extracting(ws -> ws.scorer().type() + "=" + ws.weight())
        .containsExactly("queue-scorer=2.0", "prefix-cache-scorer=3.0");
    SchedulerProfile decode = setup.scheduler().profiles().get("decode");
    assertThat(decode.filters()).extracting(f -> f.type()).containsExactly("decode-filter");
    assertThat(decode.scorers()).extracting(ws -> ws.scorer().type() + "=" + ws.weight())
        .containsExactly("queue-scorer=2.0", "kv-cache-utilization-scorer=2.0", "prefix-cache-scorer=3.0");
    assertThat(decode.picker()).isInstanceOf(MaxScorePicker.class);
  }
}
