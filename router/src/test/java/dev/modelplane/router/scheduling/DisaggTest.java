package dev.modelplane.router.scheduling;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.common.picker.PickerConfigs;
import dev.modelplane.router.config.ConfigLoader;
import dev.modelplane.router.config.PluginRegistry;
import dev.modelplane.router.config.SchedulingSetup;
import dev.modelplane.router.plugin.PluginEnvironment;
import dev.modelplane.router.plugin.PluginObserver;
import dev.modelplane.router.pool.MetricsSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static dev.modelplane.router.TestEndpoints.state;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * The P/D setup of llm-d's sample config ({@code disagg-profile-handler} with its deciders) and of OtterScale's
 * pd-config.yaml, the file the operator writes ({@code pd-profile-handler}): decode and prefill profiles, prefix-based
 * decider with N = 16.
 */
class DisaggTest {
  private static final String LLM_D_SAMPLE = """
      apiVersion: llm-d.ai/v1alpha1
      kind: EndpointPickerConfig
      plugins:
      - type: prefill-filter
      - type: decode-filter
      - type: prefix-cache-scorer
      - type: queue-scorer
      - type: max-score-picker
      - type: prefix-based-pd-decider
        parameters:
          nonCachedTokens: 16
      - type: disagg-profile-handler
        parameters:
          deciders:
            prefill: prefix-based-pd-decider
      schedulingProfiles:
      - name: prefill
        plugins:
        - pluginRef: prefill-filter
        - pluginRef: max-score-picker
        - pluginRef: prefix-cache-scorer
          weight: 2
        - pluginRef: queue-scorer
          weight: 1
      - name: decode
        plugins:
        - pluginRef: decode-filter
        - pluginRef: max-score-picker
        - pluginRef: prefix-cache-scorer
          weight: 2
        - pluginRef: queue-scorer
          weight: 1
      """;
  private static final ObjectMapper JSON = new ObjectMapper();

  private final List<String> decisions = new ArrayList<>();
  private SchedulingSetup setup;

  static Stream<Arguments> configs() {
    return Stream.of(arguments("llm-d's sample", LLM_D_SAMPLE),
        arguments("OtterScale's pd-config.yaml", PickerConfigs.OTTERSCALE_PREFILL_DECODE.yaml()));
  }

  private void load(String config) {
    setup = new ConfigLoader(PluginRegistry.builtIn(),
        new PluginEnvironment(System::nanoTime, java.util.concurrent.ThreadLocalRandom::current, Runnable::run,
            new PluginObserver() {
              @Override
              public void disaggDecision(String targetModel, String decision) {
                decisions.add(decision);
              }
            }), null).load(config);
  }

  private final List<Candidate> pool = List.of(
      new Candidate(state("decode-0", MetricsSnapshot.of(0, 0, 0), Map.of("llm-d.ai/role", "decode"))),
      new Candidate(state("prefill-0", MetricsSnapshot.of(0, 0, 0), Map.of("llm-d.ai/role", "prefill"))));

  private InferenceRequest request(String prompt, Map<String, String> headers) {
    ObjectNode body = JSON.createObjectNode().put("model", "m").put("prompt", prompt);
    return new InferenceRequest("r", "m", "m", new LlmRequestBody(LlmRequestBody.Api.COMPLETIONS, body), headers, 0,
        "default-flow", 0);
  }

  private SchedulingResult run(InferenceRequest request) throws SchedulingException {
    List<Candidate> candidates = new ArrayList<>();
    pool.forEach(c -> candidates.add(new Candidate(c.state())));
    setup.lifecycle().prepareData().forEach(p -> p.prepareRequestData(request, candidates));
    SchedulingResult result = setup.scheduler().schedule(request, candidates);
    setup.lifecycle().preRequest().forEach(p -> p.preRequest(request, result));
    return result;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configs")
  void longUncachedPromptRunsPrefillAndSetsTheHeader(String name, String config) throws Exception {
    load(config);
    InferenceRequest r = request("x".repeat(400), Map.of()); // 100 tokens, nothing cached
    SchedulingResult result = run(r);
    assertThat(result.primaryProfileName()).isEqualTo("decode");
    assertThat(result.primary().targets().get(0).endpoint().id().name()).isEqualTo("decode-0");
    assertThat(r.setHeaders()).containsEntry("x-prefiller-host-port",
        pool.get(1).endpoint().hostPort());
    assertThat(decisions).containsExactly("prefill-decode");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configs")
  void shortPromptStaysOnDecodeAndClearsAClientHeader(String name, String config) throws Exception {
    load(config);
    InferenceRequest r = request("short prompt", Map.of("x-prefiller-host-port", "evil:1"));
    SchedulingResult result = run(r);
    assertThat(result.profileResults()).containsOnlyKeys("decode");
    assertThat(r.removedHeaders()).contains("x-prefiller-host-port");
    assertThat(r.headers()).doesNotContainKey("x-prefiller-host-port");
    assertThat(decisions).containsExactly("decode-only");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configs")
  void cachedPrefixOnDecodeAvoidsPrefill(String name, String config) throws Exception {
    load(config);
    String prompt = "y".repeat(400);
    run(request(prompt, Map.of())); // teaches the index that decode-0 (and prefill-0) hold the prompt
    InferenceRequest again = request(prompt, Map.of());
    SchedulingResult second = run(again);
    // 100 input tokens, 96 cached (6 blocks of 16) → 4 uncached < 16.
    assertThat(second.profileResults()).containsOnlyKeys("decode");
    assertThat(again.setHeaders()).doesNotContainKey("x-prefiller-host-port");
  }
}
