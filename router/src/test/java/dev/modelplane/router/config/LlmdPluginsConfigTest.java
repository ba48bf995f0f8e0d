package dev.modelplane.router.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.router.load.InFlightLoadProducer;
import dev.modelplane.router.load.PrefixCacheAffinityFilter;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.pool.EndpointState;
import dev.modelplane.router.pool.MetricsSnapshot;
import dev.modelplane.router.prefix.ApproxPrefixCacheProducer;
import dev.modelplane.router.scheduling.Candidate;
import dev.modelplane.router.scheduling.InferenceRequest;
import dev.modelplane.router.scheduling.LlmRequestBody;
import dev.modelplane.router.scheduling.PreRequestPlugin;
import dev.modelplane.router.scheduling.PrepareDataPlugin;
import dev.modelplane.router.scheduling.ProfileRunResult;
import dev.modelplane.router.scheduling.SchedulerProfile;
import dev.modelplane.router.scheduling.SchedulingResult;
import dev.modelplane.router.scheduling.plugins.MaxScorePicker;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** llm-d's plugins as configured: its recommended profile, and the error a user sees for each bad parameter. */
class LlmdPluginsConfigTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final ConfigLoader loader = new ConfigLoader(PluginRegistry.builtIn(), PluginEnvironment.direct(), null);

  private static InferenceRequest chat(String id, String content) {
    ObjectNode body = JSON.createObjectNode().put("model", "m");
    body.putArray("messages").addObject().put("role", "user").put("content", content);
    return new InferenceRequest(id, "m", "m", new LlmRequestBody(LlmRequestBody.Api.CHAT_COMPLETIONS, body),
        Map.of(), 0, "default-flow", 0);
  }

  /** What the director does for one request, up to the dispatch: PrepareData, the scheduler, PreRequest. */
  private static EndpointState route(SchedulingSetup setup, InferenceRequest request, List<EndpointState> pool) {
    List<Candidate> candidates = pool.stream().map(Candidate::new).toList();
    for (PrepareDataPlugin p : setup.lifecycle().prepareData()) {
      p.prepareRequestData(request, candidates);
    }
    SchedulingResult result = setup.scheduler().scheduleUnchecked(request, candidates);
    for (PreRequestPlugin p : setup.lifecycle().preRequest()) {
      p.preRequest(request, result);
    }
    return result.primary().targets().get(0).state();
  }

  @Test
  void llmDsRecommendedProfileLoadsWithItsDefaults() {
    SchedulingSetup setup = loader.load(PickerConfigs.LLMD_RECOMMENDED.yaml());
    SchedulerProfile profile = setup.scheduler().profiles().get("default");
    assertThat(setup.scheduler().profiles()).containsOnlyKeys("default");
    assertThat(profile.filters()).extracting(f -> f.type()).containsExactly("prefix-cache-affinity-filter");
    assertThat(profile.scorers()).extracting(ws -> ws.scorer().type() + "=" + ws.weight())
        .containsExactly("token-load-scorer=1.0");
    assertThat(profile.picker()).isInstanceOf(MaxScorePicker.class);
    assertThat(((PrefixCacheAffinityFilter) profile.filters().get(0)).settings())
        .isEqualTo(PrefixCacheAffinityFilter.Settings.DEFAULT);
    assertThat(setup.lifecycle().prepareData()).extracting(p -> p.type())
        .containsExactly(ApproxPrefixCacheProducer.TYPE);
    assertThat(setup.lifecycle().preRequest()).extracting(p -> p.type())
        .containsExactly(ApproxPrefixCacheProducer.TYPE, InFlightLoadProducer.TYPE);
    assertThat(setup.lifecycle().responseComplete()).extracting(p -> p.type())
        .containsExactly(InFlightLoadProducer.TYPE);
  }

  @Test
  void llmDsRecommendedProfileSticksToTheCachedEndpointUntilItIsSaturated() {
    SchedulingSetup setup = loader.load(PickerConfigs.LLMD_RECOMMENDED.yaml());
    InFlightLoadProducer load = (InFlightLoadProducer) setup.plugins().get(InFlightLoadProducer.TYPE);
    List<EndpointState> pool = List.of(state("a", MetricsSnapshot.NONE), state("b", MetricsSnapshot.NONE));
    String document = "shared system prompt and a long document. ".repeat(200); // ~2,150 tokens

    EndpointState first = route(setup, chat("r0", document + "question 0"), pool);
    EndpointState other = pool.get(0) == first ? pool.get(1) : pool.get(0);
    for (int i = 1; i <= 20; i++) {
      // Each follow-up stays on the endpoint caching the document, although its requests pile up there.
      assertThat(route(setup, chat("r" + i, document + "question " + i), pool)).isSameAs(first);
    }
    assertThat(load.load(first.id()).requests()).isEqualTo(21);
    assertThat(load.load(other.id())).isEqualTo(InFlightLoadProducer.Load.ZERO);

    // 18 s of prefill at 15,928 tokens/s more than the other endpoint: stickiness breaks, the least loaded wins.
    InferenceRequest huge = chat("huge", "q".repeat(4 * 300_000));
    Candidate target = new Candidate(first);
    load.preRequest(huge, new SchedulingResult("default", Map.of("default", new ProfileRunResult(List.of(target)))));
    assertThat(route(setup, chat("next", document + "question 21"), pool)).isSameAs(other);
  }

  static Stream<Arguments> badParameters() {
    return Stream.of(
        arguments("unknown parameter (llm-d's older load gate)",
            "{type: prefix-cache-affinity-filter, parameters: {maxTokensInFlightPenalty: 286720}}",
            "plugin 'prefix-cache-affinity-filter' (prefix-cache-affinity-filter): unknown parameter "
            + "'maxTokensInFlightPenalty' (known: affinityThreshold, explorationProbability, maxTTFTPenaltyMs, "
            + "ttftSource, peakPrefillThroughput, prefixMatchInfoProducerName, latencyPredictionInfoProducerName, "
            + "inFlightLoadProducerName)"),
        arguments("affinityThreshold above 1",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {affinityThreshold: 1.5}}",
            "plugin 'f' (prefix-cache-affinity-filter): affinityThreshold must be <= 1.0, got 1.5"),
        arguments("affinityThreshold not a number",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {affinityThreshold: high}}",
            "plugin 'f' (prefix-cache-affinity-filter): parameter 'affinityThreshold' must be a number, got \"high\""),
        arguments("explorationProbability outside [0, 1]",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {explorationProbability: 2}}",
            "plugin 'f' (prefix-cache-affinity-filter): explorationProbability must be in [0, 1], got 2.0"),
        arguments("negative maxTTFTPenaltyMs",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {maxTTFTPenaltyMs: -1}}",
            "plugin 'f' (prefix-cache-affinity-filter): maxTTFTPenaltyMs must be >= 0, got -1.0"),
        arguments("negative peakPrefillThroughput",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {peakPrefillThroughput: -5}}",
            "plugin 'f' (prefix-cache-affinity-filter): peakPrefillThroughput must be >= 0, got -5.0"),
        arguments("zero peakPrefillThroughput with the gate on",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {peakPrefillThroughput: 0}}",
            "plugin 'f' (prefix-cache-affinity-filter): peakPrefillThroughput must be > 0 when ttftSource is "
            + "prefillThroughput"),
        arguments("unknown ttftSource",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {ttftSource: guess}}",
            "plugin 'f' (prefix-cache-affinity-filter): ttftSource must be \"latencyPredictor\" or "
            + "\"prefillThroughput\", got \"guess\""),
        arguments("latencyPredictor with the gate on",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {ttftSource: latencyPredictor}}",
            "plugin 'f' (prefix-cache-affinity-filter): ttftSource \"latencyPredictor\" reads llm-d's "
            + "predicted-latency-producer, which this router does not have; use \"prefillThroughput\" or "
            + "maxTTFTPenaltyMs: 0"),
        arguments("the gate without an inflight-load-producer",
            "{name: f, type: prefix-cache-affinity-filter}",
            "plugin 'f' (prefix-cache-affinity-filter): needs an inflight-load-producer named "
            + "'inflight-load-producer' for in-flight tokens; declare one (- type: inflight-load-producer)"),
        arguments("a prefix producer name that is not declared",
            "{name: f, type: prefix-cache-affinity-filter, parameters: {maxTTFTPenaltyMs: 0, "
            + "prefixMatchInfoProducerName: precise}}",
            "plugin 'f' (prefix-cache-affinity-filter): prefixMatchInfoProducerName 'precise' is not a declared "
            + "plugin"),
        arguments("token-load-scorer: unknown parameter",
            "{name: t, type: token-load-scorer, parameters: {threshold: 5}}",
            "plugin 't' (token-load-scorer): unknown parameter 'threshold' (known: queueThresholdTokens, "
            + "inFlightLoadProducerName)"),
        arguments("token-load-scorer: queueThresholdTokens not an integer",
            "{name: t, type: token-load-scorer, parameters: {queueThresholdTokens: 1.5}}",
            "plugin 't' (token-load-scorer): parameter 'queueThresholdTokens' must be an integer, got 1.5"),
        arguments("token-load-scorer: no producer",
            "{name: t, type: token-load-scorer, parameters: {inFlightLoadProducerName: load}}",
            "plugin 't' (token-load-scorer): needs an inflight-load-producer named 'load' for in-flight tokens; "
            + "declare one (- type: inflight-load-producer, name: load)"),
        arguments("token-load-scorer: the producer name is another plugin",
            "{name: t, type: token-load-scorer, parameters: {inFlightLoadProducerName: q}}, {name: q, type: "
            + "queue-scorer}",
            "plugin 't' (token-load-scorer): inFlightLoadProducerName 'q' is a queue-scorer, not an "
            + "inflight-load-producer"),
        arguments("inflight-load-producer: negative outputRatio",
            "{name: l, type: inflight-load-producer, parameters: {outputRatio: -0.5}}",
            "plugin 'l' (inflight-load-producer): outputRatio must be non-negative, got -0.5"),
        arguments("inflight-load-producer: negative maxEstimatedOutputTokens",
            "{name: l, type: inflight-load-producer, parameters: {maxEstimatedOutputTokens: -1}}",
            "plugin 'l' (inflight-load-producer): maxEstimatedOutputTokens must be non-negative, got -1"),
        arguments("inflight-load-producer: not a boolean",
            "{name: l, type: inflight-load-producer, parameters: {addEstimatedOutputTokens: maybe}}",
            "plugin 'l' (inflight-load-producer): parameter 'addEstimatedOutputTokens' must be true or false, got "
            + "\"maybe\""),
        arguments("inflight-load-producer: unknown parameter",
            "{name: l, type: inflight-load-producer, parameters: {includeOutputTokens: true}}",
            "plugin 'l' (inflight-load-producer): unknown parameter 'includeOutputTokens' (known: "
            + "addEstimatedOutputTokens, outputRatio, maxEstimatedOutputTokens, prefixMatchInfoProducerName, "
            + "syncCrossReplicaState)"),
        arguments("inflight-load-producer: parameters not an object",
            "{name: l, type: inflight-load-producer, parameters: [1]}",
            "plugin 'l' (inflight-load-producer): parameters must be an object, got [1]"),
        arguments("session-affinity-filter: unknown strategy",
            "{name: s, type: session-affinity-filter, parameters: {strategy: cookie}}",
            "plugin 's' (session-affinity-filter): strategy must be \"encoded_endpoint_header\" or \"session_id\", "
            + "got \"cookie\""),
        arguments("session-affinity-filter: the old flat headerName",
            "{name: s, type: session-affinity-filter, parameters: {headerName: x-s}}",
            "plugin 's' (session-affinity-filter): unknown parameter 'headerName' (known: strategy, profileName, "
            + "encodedEndpointHeaderConfig, sessionIdConfig)"),
        arguments("session-affinity-filter: unknown header-config field",
            "{name: s, type: session-affinity-filter, parameters: {encodedEndpointHeaderConfig: {name: x}}}",
            "plugin 's' (session-affinity-filter): encodedEndpointHeaderConfig: unknown parameter 'name' (known: "
            + "header)"),
        arguments("session-affinity-scorer: a source with header and attribute",
            "{name: s, type: session-affinity-scorer, parameters: {strategy: session_id, sessionIdConfig: {sources: "
            + "[{header: a, attribute: b}]}}}",
            "plugin 's' (session-affinity-scorer): sessionIdConfig: sources[0]: exactly one of header or attribute "
            + "must be set"),
        arguments("session-affinity-scorer: a source with neither",
            "{name: s, type: session-affinity-scorer, parameters: {strategy: session_id, sessionIdConfig: {sources: "
            + "[{header: a}, {producer: p}]}}}",
            "plugin 's' (session-affinity-scorer): sessionIdConfig: sources[1]: exactly one of header or attribute "
            + "must be set"),
        arguments("session-affinity-scorer: unknown source field",
            "{name: s, type: session-affinity-scorer, parameters: {strategy: session_id, sessionIdConfig: {sources: "
            + "[{cookie: a}]}}}",
            "plugin 's' (session-affinity-scorer): sessionIdConfig: sources[0]: unknown parameter 'cookie' (known: "
            + "header, attribute, producer)"),
        arguments("session-affinity-scorer: negative TTL",
            "{name: s, type: session-affinity-scorer, parameters: {strategy: session_id, sessionIdConfig: "
            + "{evictionTtlSeconds: -1}}}",
            "plugin 's' (session-affinity-scorer): sessionIdConfig: evictionTtlSeconds must be > 0, got -1.0"),
        arguments("session-affinity-scorer: negative sweep",
            "{name: s, type: session-affinity-scorer, parameters: {strategy: session_id, sessionIdConfig: "
            + "{evictionSweepSeconds: -2}}}",
            "plugin 's' (session-affinity-scorer): sessionIdConfig: evictionSweepSeconds must be > 0, got -2.0"),
        arguments("session-affinity-scorer: unknown session-id field",
            "{name: s, type: session-affinity-scorer, parameters: {sessionIdConfig: {ttl: 5}}}",
            "plugin 's' (session-affinity-scorer): sessionIdConfig: unknown parameter 'ttl' (known: sources, "
            + "evictionTtlSeconds, evictionSweepSeconds)"),
        arguments("session-affinity-scorer: sources not a list",
            "{name: s, type: session-affinity-scorer, parameters: {strategy: session_id, sessionIdConfig: {sources: "
            + "x-session-id}}}",
            "plugin 's' (session-affinity-scorer): sessionIdConfig: parameter 'sources' must be a list, got "
            + "\"x-session-id\""),
        arguments("session-id-producer: neither header nor cookie",
            "{name: p, type: session-id-producer}",
            "plugin 'p' (session-id-producer): exactly one of headerName or cookieName must be set"),
        arguments("session-id-producer: both",
            "{name: p, type: session-id-producer, parameters: {headerName: x-s, cookieName: s}}",
            "plugin 'p' (session-id-producer): exactly one of headerName or cookieName must be set, not both"),
        arguments("session-id-producer: unknown parameter",
            "{name: p, type: session-id-producer, parameters: {header: x-s}}",
            "plugin 'p' (session-id-producer): unknown parameter 'header' (known: headerName, cookieName)"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badParameters")
  void aBadParameterIsAnErrorNamingThePluginAndTheParameter(String what, String plugin, String message) {
    assertThatThrownBy(() -> loader.load("plugins: [" + plugin + "]")).hasMessage(message);
  }

  @Test
  void theProducersAndSessionPluginsLoadWithLlmDsParameters() {
    SchedulingSetup setup = loader.load("""
        plugins:
        - type: inflight-load-producer
          name: load
          parameters: {addEstimatedOutputTokens: true, outputRatio: 1.0, maxEstimatedOutputTokens: 2048,
                       syncCrossReplicaState: false, prefixMatchInfoProducerName: approx-prefix-cache-producer}
        - type: approx-prefix-cache-producer
        - type: prefix-cache-affinity-filter
          parameters: {affinityThreshold: 0.99, explorationProbability: 0.01, maxTTFTPenaltyMs: 5000,
                       peakPrefillThroughput: 3585, inFlightLoadProducerName: load,
                       prefixMatchInfoProducerName: approx-prefix-cache-producer}
        - type: token-load-scorer
          parameters: {queueThresholdTokens: 8589934592, inFlightLoadProducerName: load}
        - type: session-id-producer
          parameters: {cookieName: llm-d-session}
        - type: session-affinity-scorer
          parameters:
            strategy: session_id
            sessionIdConfig:
              sources: [{header: x-session-id}, {attribute: SessionIDDataKey, producer: session-id-producer}]
              evictionTtlSeconds: 3600
        - type: session-affinity-filter
          parameters: {profileName: decode, encodedEndpointHeaderConfig: {header: x-session-token}}
        schedulingProfiles:
        - name: default
          plugins:
          - pluginRef: session-affinity-filter
          - pluginRef: prefix-cache-affinity-filter
          - pluginRef: token-load-scorer
          - pluginRef: session-affinity-scorer
            weight: 5
        """);
    SchedulerProfile profile = setup.scheduler().profiles().get("default");
    assertThat(profile.filters()).extracting(f -> f.type())
        .containsExactly("session-affinity-filter", "prefix-cache-affinity-filter");
    assertThat(profile.scorers()).extracting(ws -> ws.scorer().type() + "=" + ws.weight())
        .containsExactly("token-load-scorer=1.0", "session-affinity-scorer=5.0");
    assertThat(((PrefixCacheAffinityFilter) profile.filters().get(1)).settings())
        .isEqualTo(new PrefixCacheAffinityFilter.Settings(0.99, 0.01, 5000, 3585));
    assertThat(setup.lifecycle().responseReceived()).extracting(p -> p.type())
        .containsExactly("inflight-load-producer", "approx-prefix-cache-producer", "session-affinity-scorer",
            "session-affinity-filter");
    // Without the load gate the filter needs no producer, and llm-d's latencyPredictor source is never read.
    assertThat(loader.load("""
        plugins: [{type: prefix-cache-affinity-filter, parameters: {maxTTFTPenaltyMs: 0, ttftSource: latencyPredictor}}]
        """).scheduler().profiles().get("default").filters()).hasSize(1);
  }
}
