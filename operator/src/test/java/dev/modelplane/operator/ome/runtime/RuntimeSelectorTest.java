package dev.modelplane.operator.ome.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.ClusterBaseModel;
import dev.modelplane.api.ome.v1beta1.ClusterServingRuntime;
import dev.modelplane.api.ome.v1beta1.ServingRuntime;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RuntimeSelectorTest {
  private static final String LLAMA = """
      modelFormat: {name: safetensors, version: "1.0.0"}
      modelFramework: {name: transformers, version: "4.43.0"}
      modelArchitecture: LlamaForCausalLM
      modelParameterSize: 8B
      storage: {storageUri: "hf://meta/llama", path: /m}
      """;

  private static BaseModelSpec model(String yaml) {
    return Serialization.unmarshal("apiVersion: ome.io/v1beta1\nkind: ClusterBaseModel\nmetadata: {name: m}\n"
        + "spec:\n" + yaml.indent(2), ClusterBaseModel.class).getSpec();
  }

  /** A format entry: name, arch, priority, autoSelect, extra lines. */
  private static String format(String arch, int priority, boolean auto, String extra) {
    return """
        - name: f
          modelFormat: {name: safetensors, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: %s
          autoSelect: %s
          priority: %d
        """.formatted(arch, auto, priority) + (extra.isEmpty() ? "" : extra.indent(2));
  }

  private static RuntimeCandidate cluster(String name, String spec) {
    ClusterServingRuntime r = Serialization.unmarshal("apiVersion: ome.io/v1beta1\nkind: ClusterServingRuntime\n"
        + "metadata: {name: " + name + "}\nspec:\n" + spec.indent(2), ClusterServingRuntime.class);
    return RuntimeCandidate.of(r);
  }

  private static RuntimeCandidate namespaced(String name, String spec) {
    ServingRuntime r = Serialization.unmarshal("apiVersion: ome.io/v1beta1\nkind: ServingRuntime\n"
        + "metadata: {name: " + name + ", namespace: llm}\nspec:\n" + spec.indent(2), ServingRuntime.class);
    return RuntimeCandidate.of(r);
  }

  private static String formats(String... entries) {
    return "supportedModelFormats:\n" + String.join("", entries).indent(2);
  }

  private static RuntimeRequest request(String modelYaml, String... accelerators) {
    return new RuntimeRequest("llm", "llama", model(modelYaml), Set.of(accelerators));
  }

  private static RuntimeChoice.Chosen chosen(RuntimeChoice choice) {
    assertThat(choice).isInstanceOf(RuntimeChoice.Chosen.class);
    return (RuntimeChoice.Chosen) choice;
  }

  private static RuntimeChoice.NoRuntime none(RuntimeChoice choice) {
    assertThat(choice).isInstanceOf(RuntimeChoice.NoRuntime.class);
    return (RuntimeChoice.NoRuntime) choice;
  }

  @Test
  void theHighestPriorityMatchingRuntimeIsChosenAndScoresFormatAndFrameworkWeights() {
    RuntimeChoice.Chosen c = chosen(RuntimeSelector.select(request(LLAMA), List.of(
        cluster("low", formats(format("LlamaForCausalLM", 1, true, ""))),
        cluster("high", formats(format("LlamaForCausalLM", 3, true, ""))))));
    assertThat(c.runtime().name()).isEqualTo("high");
    assertThat(c.score()).as("format weight 1 x 3 + framework weight 1 x 3").isEqualTo(6);
    assertThat(c.named()).isFalse();
    assertThat(c.describe()).isEqualTo("ClusterServingRuntime high (auto-selected, score 6)");
  }

  @Test
  void aWeightOfZeroCountsAsOmesDefaults() {
    String zero = """
        - name: z
          modelFormat: {name: safetensors, version: "1.0.0", weight: 0}
          modelFramework: {name: transformers, version: "4.43.0", weight: 0}
          modelArchitecture: LlamaForCausalLM
          autoSelect: true
          priority: 2
        """;
    assertThat(chosen(RuntimeSelector.select(request(LLAMA), List.of(cluster("z", formats(zero))))).score())
        .isEqualTo(30);
  }

  @Test
  void namespaceRuntimesComeBeforeEveryClusterRuntimeWhateverTheScore() {
    RuntimeChoice.Chosen c = chosen(RuntimeSelector.select(request(LLAMA), List.of(
        cluster("cluster-best", formats(format("LlamaForCausalLM", 9, true, ""))),
        namespaced("local", formats(format("LlamaForCausalLM", 1, true, ""))))));
    assertThat(c.runtime().name()).isEqualTo("local");
    assertThat(c.runtime().scope()).isEqualTo(RuntimeCandidate.Scope.NAMESPACE);
  }

  @Test
  void equalScoresGoToTheClosestSizeRangeThenToTheName() {
    String f = formats(format("LlamaForCausalLM", 1, true, ""));
    RuntimeChoice.Chosen bySize = chosen(RuntimeSelector.select(request(LLAMA), List.of(
        cluster("a-wide", f + "modelSizeRange: {min: 1B, max: 70B}\n"),
        cluster("b-tight", f + "modelSizeRange: {min: 7B, max: 9B}\n"))));
    assertThat(bySize.runtime().name()).isEqualTo("b-tight");
    RuntimeChoice.Chosen byName = chosen(RuntimeSelector.select(request(LLAMA), List.of(cluster("b", f),
        cluster("a", f))));
    assertThat(byName.runtime().name()).isEqualTo("a");
  }

  @Test
  void everyExclusionIsListedWithItsReason() {
    String f = format("LlamaForCausalLM", 1, true, "");
    RuntimeChoice.NoRuntime n = none(RuntimeSelector.select(request(LLAMA, "h100"), List.of(
        cluster("off", formats(f) + "disabled: true\n"),
        cluster("a100-only", formats(f) + "acceleratorRequirements: {acceleratorClasses: [a100]}\n"),
        cluster("mistral", formats(format("MistralForCausalLM", 1, true, ""))),
        cluster("tiny", formats(f) + "modelSizeRange: {min: 1B, max: 3B}\n" + h100()),
        cluster("manual", formats(format("LlamaForCausalLM", 1, false, "")) + h100()),
        namespaced("local-off", formats(f) + "disabled: true\n"))));
    assertThat(n.reason()).isEqualTo("NoSupportingRuntime");
    assertThat(n.message()).isEqualTo("no runtime found to support model llama with format safetensors in "
        + "namespace llm. Checked 6 runtimes (1 namespace-scoped, 5 cluster-scoped). Excluded runtimes: "
        + "local-off (runtime is disabled); "
        + "a100-only (runtime does not support the required accelerator class h100); "
        + "manual (no supported format allows auto-selection (autoSelect: true)); "
        + "mistral (runtime does not support the required accelerator class h100); "
        + "off (runtime is disabled); "
        + "tiny (model size 8B is outside supported range [1B, 3B])");
    assertThat(n.excluded()).extracting(RuntimeChoice.Exclusion::runtime)
        .containsExactly("local-off", "a100-only", "manual", "mistral", "off", "tiny");
  }

  private static String h100() {
    return "acceleratorRequirements: {acceleratorClasses: [h100, a100]}\n";
  }

  @Test
  void aRuntimeListingProtocolsMustServeTheOneTheServiceAsksFor() {
    String f = formats(format("LlamaForCausalLM", 1, true, ""));
    RuntimeRequest openAi = new RuntimeRequest("llm", "llama", model(LLAMA), Set.of(), "openai");
    RuntimeChoice.Chosen c = chosen(RuntimeSelector.select(openAi, List.of(
        cluster("cohere-only", f + "protocolVersions: [cohere]\n"),
        cluster("both", f + "protocolVersions: [cohere, openAI]\n"))));
    assertThat(c.runtime().name()).isEqualTo("both");
    RuntimeChoice.NoRuntime n = none(RuntimeSelector.select(openAi, List.of(
        cluster("cohere-only", f + "protocolVersions: [cohere]\n"))));
    assertThat(n.excluded()).singleElement().satisfies(e -> assertThat(e.reason())
        .isEqualTo("runtime serves protocolVersions [cohere], not openai (the service's PROTOCOL_VERSION)"));
    assertThat(chosen(RuntimeSelector.select(request(LLAMA), List.of(
        cluster("cohere-only", f + "protocolVersions: [cohere]\n")))).runtime().name()).isEqualTo("cohere-only");
    assertThat(chosen(RuntimeSelector.select(openAi, List.of(cluster("unlisted", f)))).runtime().name())
        .isEqualTo("unlisted");
  }

  @Test
  void formatMismatchesNameEveryDifference() {
    RuntimeChoice.NoRuntime n = none(RuntimeSelector.select(request(LLAMA), List.of(
        cluster("other", formats(format("MistralForCausalLM", 1, true, "quantization: fp8"))))));
    assertThat(n.excluded().getFirst().reason()).isEqualTo("model format "
        + "'mt:safetensors:1.0.0:LlamaForCausalLM:transformers:4.43.0' not in supported formats: architecture "
        + "mismatch (model=LlamaForCausalLM, runtime=MistralForCausalLM), model has no quantization but runtime "
        + "requires fp8");
  }

  @Test
  void architectureAndQuantizationMustBeOnBothSidesOrOnNeither() {
    String noArch = """
        - name: any
          modelFormat: {name: safetensors, version: "1.0.0"}
          modelFramework: {name: transformers, version: "4.43.0"}
          autoSelect: true
        """;
    assertThat(none(RuntimeSelector.select(request(LLAMA), List.of(cluster("generic", formats(noArch)))))
        .excluded().getFirst().reason()).endsWith("model has architecture LlamaForCausalLM but runtime has no "
            + "architecture requirement");
    String modelWithoutArch = LLAMA.replace("modelArchitecture: LlamaForCausalLM\n", "");
    assertThat(chosen(RuntimeSelector.select(request(modelWithoutArch), List.of(cluster("generic",
        formats(noArch))))).runtime().name()).isEqualTo("generic");
  }

  @Test
  void versionsOnOneSideOnlyAndFrameworksOnOneSideOnlyDoNotMatch() {
    String noVersion = """
        - name: nv
          modelFormat: {name: safetensors}
          modelFramework: {name: transformers, version: "4.43.0"}
          modelArchitecture: LlamaForCausalLM
          autoSelect: true
        """;
    assertThat(none(RuntimeSelector.select(request(LLAMA), List.of(cluster("nv", formats(noVersion)))))
        .excluded().getFirst().reason()).endsWith("model has format version 1.0.0 but runtime has no version "
            + "requirement");
    String modelWithoutFramework = LLAMA.replace("modelFramework: {name: transformers, version: \"4.43.0\"}\n", "");
    assertThat(none(RuntimeSelector.select(request(modelWithoutFramework), List.of(cluster("fw",
        formats(format("LlamaForCausalLM", 1, true, "")))))).excluded().getFirst().reason())
        .endsWith("model has no framework but runtime requires transformers");
    String newer = format("LlamaForCausalLM", 1, true, "").replace("{name: transformers, version: \"4.43.0\"}",
        "{name: transformers, version: \"6.0.0\", operator: GreaterThan}");
    assertThat(chosen(RuntimeSelector.select(request(LLAMA), List.of(cluster("newer", formats(newer))))).runtime()
        .name()).isEqualTo("newer");
  }

  @Test
  void diffusionPipelineComponentsTheRuntimeSetsMustEqualTheModels() {
    String model = LLAMA.replace("modelArchitecture: LlamaForCausalLM\n", "modelArchitecture: FluxPipeline\n")
        + "diffusionPipeline: {className: FluxPipeline, vae: {library: diffusers, type: AutoencoderKL}}\n";
    String matching = format("FluxPipeline", 1, true, "diffusionPipeline: {vae: {library: diffusers}}");
    String other = format("FluxPipeline", 1, true, "diffusionPipeline: {className: SDXL}");
    assertThat(chosen(RuntimeSelector.select(request(model), List.of(cluster("flux", formats(matching)))))
        .runtime().name()).isEqualTo("flux");
    assertThat(none(RuntimeSelector.select(request(model), List.of(cluster("sdxl", formats(other)))))
        .excluded().getFirst().reason()).contains("pipeline class mismatch (model=FluxPipeline, runtime=SDXL)");
  }

  @Test
  void aFormatThatMatchesButDoesNotAllowAutoSelectionScoresNothing() {
    RuntimeChoice.NoRuntime n = none(RuntimeSelector.select(request(LLAMA), List.of(cluster("mixed", formats(
        format("LlamaForCausalLM", 1, false, ""), format("MistralForCausalLM", 1, true, ""))))));
    assertThat(n.excluded().getFirst().reason()).isEqualTo("no auto-selectable supported format matches the "
        + "model (score 0)");
  }

  @Test
  void aNamedRuntimeNeedsNoAutoSelectionButMustFit() {
    String manual = formats(format("LlamaForCausalLM", 1, false, ""));
    RuntimeChoice.Chosen c = chosen(RuntimeSelector.named(request(LLAMA), "manual", List.of(cluster("manual",
        manual))));
    assertThat(c.named()).isTrue();
    assertThat(c.format().name()).isEqualTo("f");
    assertThat(c.describe()).isEqualTo("ClusterServingRuntime manual (named in spec.runtime)");
    assertThat(none(RuntimeSelector.named(request(LLAMA), "gone", List.of())).message())
        .isEqualTo("runtime gone not found in namespace llm or at cluster scope");
    RuntimeChoice.NoRuntime disabled = none(RuntimeSelector.named(request(LLAMA), "manual", List.of(
        namespaced("manual", manual + "disabled: true\n"), cluster("manual", manual))));
    assertThat(disabled.reason()).isEqualTo("RuntimeDisabled");
    assertThat(disabled.message()).isEqualTo("namespace-scoped runtime manual is disabled");
    assertThat(none(RuntimeSelector.named(request(LLAMA), "small", List.of(cluster("small", manual
        + "modelSizeRange: {min: 1B, max: 3B}\n")))).message())
        .isEqualTo("runtime small does not support model llama: model size 8B is outside supported range [1B, 3B]");
  }

  @Test
  void aModelWithoutFormatCannotBeMatched() {
    RuntimeChoice.NoRuntime n = none(RuntimeSelector.select(request("storage: {storageUri: \"hf://a/b\"}\n"),
        List.of()));
    assertThat(n.reason()).isEqualTo("InvalidModel");
    assertThat(n.message()).isEqualTo("invalid model specification: model llama has no modelFormat.name, which "
        + "runtime selection needs");
  }

  @Test
  void acceleratorClassesComeFromEveryPlaceTheServiceNamesThem() {
    var isvc = Serialization.unmarshal("""
        apiVersion: ome.io/v1beta1
        kind: InferenceService
        metadata: {name: s, annotations: {ome.io/accelerator-class: a}}
        spec:
          acceleratorSelector: {acceleratorClass: b}
          engine: {acceleratorOverride: {acceleratorClass: c}}
          decoder: {acceleratorOverride: {acceleratorClass: d}}
        """, dev.modelplane.api.ome.v1beta1.InferenceService.class);
    assertThat(RuntimeRequest.acceleratorClasses(isvc)).containsExactly("a", "b", "c", "d");
  }

  @Test
  void theReportShowsTheRuntimeOrEveryExclusion() {
    assertThat(RuntimeSelector.report(RuntimeSelector.select(request(LLAMA), List.of(cluster("off",
        formats(format("LlamaForCausalLM", 1, true, "")) + "disabled: true\n"))))).isEqualTo("no runtime "
            + "(NoSupportingRuntime): no runtime found to support model llama with format safetensors in namespace "
            + "llm. Checked 1 runtimes (0 namespace-scoped, 1 cluster-scoped). Excluded runtimes: off (runtime is "
            + "disabled)\n  excluded ClusterServingRuntime off: runtime is disabled");
    RuntimeCandidate newer = new RuntimeCandidate("n", RuntimeCandidate.Scope.CLUSTER, cluster("x",
        formats(format("LlamaForCausalLM", 1, true, ""))).spec(), Instant.now());
    assertThat(RuntimeSelector.report(RuntimeSelector.select(request(LLAMA), List.of(newer))))
        .isEqualTo("runtime: ClusterServingRuntime n (auto-selected, score 2)\n  format: f");
  }
}
