package dev.modelplane.api.ome.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.modelplane.crdtools.SchemaPatch;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.List;
import java.util.Map;

/**
 * What to benchmark, with which traffic, for how long, and where the results go. The run is one iteration per
 * combination of traffic scenario and concurrency level.
 *
 * @param huggingFaceSecretReference Secret with a Hugging Face token, for gated tokenizers or datasets on the Hub.
 * @param endpoint The server under test: an InferenceService or an endpoint given by URL (exactly one of the two).
 * @param serviceMetadata Facts about the server under test (engine, version, accelerators), stored with the results.
 * @param task Kind of requests to send: {@code text-to-text}, {@code image-to-text}, {@code text-to-embeddings},
 *     {@code image-to-embeddings}, {@code text-to-rerank} or {@code text-to-speech}.
 * @param trafficScenarios Shapes of the requests, one iteration set each (at most 64). Text tasks take
 *     {@code D(in,out)} (fixed input/output tokens), {@code N(in_mean,in_sd)/(out_mean,out_sd)} (normal
 *     distributions) and {@code U(in_min,in_max)/(out_min,out_max)} or {@code U(in_max,out_max)} (uniform);
 *     embedding tasks on text take {@code E(tokens)}; image tasks take {@code I(width,height)} or
 *     {@code I(width,height,images)}; rerank takes {@code R(document_tokens,query_tokens)}; speech takes
 *     {@code A(characters)}; {@code dataset} replays the dataset as it is. When empty, a default set for
 *     the task is used (for text-to-text: {@code N(480,240)/(300,150)}, {@code D(100,100)}, {@code D(100,1000)},
 *     {@code D(2000,200)}, {@code D(7800,200)}).
 * @param numConcurrency Numbers of requests kept in flight at once, one iteration set each; each at least 1. When
 *     empty, the benchmark's default levels are used.
 * @param maxTimePerIteration Upper bound on the duration of one iteration, in minutes; at least 1.
 * @param maxRequestsPerIteration Upper bound on the number of requests of one iteration; at least 1.
 * @param additionalRequestParams Extra parameters added to every request, such as {@code temperature} (a number) or
 *     {@code ignore_eos} ({@code true} or {@code false}).
 * @param dataset Where the prompts (and, for image tasks, the images) come from; needed by the image tasks, which
 *     cannot synthesise their inputs.
 * @param outputLocation Where the results are written: an object-store URI ({@code oci://}, {@code s3://},
 *     {@code az://}, {@code gs://}), a {@code github://} repository or a {@code pvc://} volume.
 * @param resultFolderName Name of the folder the results of this run are written to; derived from the run when not
 *     set.
 * @param podOverride Changes to the pod that runs the benchmark.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "self.task.startsWith('text-to-') || has(self.dataset)",
    message = "dataset is required for image tasks")
@ValidationRule(value = "self.task != 'text-to-text' || !has(self.trafficScenarios) "
    + "|| self.trafficScenarios.all(s, s.matches(" + BenchmarkJobSpec.TEXT + "))",
    messageExpression = "'trafficScenarios entry \"' + self.trafficScenarios.filter(s, !s.matches("
        + BenchmarkJobSpec.TEXT + "))[0] + '\" is not a text-to-text scenario: use D(in,out), "
        + "N(in_mean,in_sd)/(out_mean,out_sd), U(in_min,in_max)/(out_min,out_max), U(in_max,out_max) or dataset'")
@ValidationRule(value = "self.task != 'text-to-embeddings' || !has(self.trafficScenarios) "
    + "|| self.trafficScenarios.all(s, s.matches(" + BenchmarkJobSpec.EMBEDDINGS + "))",
    messageExpression = "'trafficScenarios entry \"' + self.trafficScenarios.filter(s, !s.matches("
        + BenchmarkJobSpec.EMBEDDINGS + "))[0] + '\" is not a text-to-embeddings scenario: use E(tokens) or dataset'")
@ValidationRule(value = "!self.task.startsWith('image-to-') || !has(self.trafficScenarios) "
    + "|| self.trafficScenarios.all(s, s.matches(" + BenchmarkJobSpec.IMAGE + "))",
    messageExpression = "'trafficScenarios entry \"' + self.trafficScenarios.filter(s, !s.matches("
        + BenchmarkJobSpec.IMAGE + "))[0] + '\" is not an ' + self.task + ' scenario: use I(width,height), "
        + "I(width,height,images) or dataset'")
@ValidationRule(value = "self.task != 'text-to-rerank' || !has(self.trafficScenarios) "
    + "|| self.trafficScenarios.all(s, s.matches(" + BenchmarkJobSpec.RERANK + "))",
    messageExpression = "'trafficScenarios entry \"' + self.trafficScenarios.filter(s, !s.matches("
        + BenchmarkJobSpec.RERANK + "))[0] + '\" is not a text-to-rerank scenario: use "
        + "R(document_tokens,query_tokens) or dataset'")
@ValidationRule(value = "self.task != 'text-to-speech' || !has(self.trafficScenarios) "
    + "|| self.trafficScenarios.all(s, s.matches(" + BenchmarkJobSpec.SPEECH + "))",
    messageExpression = "'trafficScenarios entry \"' + self.trafficScenarios.filter(s, !s.matches("
        + BenchmarkJobSpec.SPEECH + "))[0] + '\" is not a text-to-speech scenario: use A(characters) or dataset'")
public record BenchmarkJobSpec(
    HuggingFaceSecretReference huggingFaceSecretReference,
    @Required
    @ValidationRule(value = "[has(self.inferenceService), has(self.endpoint), has(self.inferencePool)]"
        + ".filter(x, x).size() == 1",
        message = "exactly one of inferenceService, endpoint or inferencePool must be set")
    EndpointSpec endpoint,
    ServiceMetadata serviceMetadata,
    @Required BenchmarkTask task,
    @Size(max = 64)
    @SchemaPatch("{\"x-kubernetes-list-type\":\"set\",\"items\":{\"maxLength\":64}}")
    List<String> trafficScenarios,
    @SchemaPatch("{\"x-kubernetes-list-type\":\"set\",\"items\":{\"minimum\":1}}") List<Integer> numConcurrency,
    @Required @Min(1) Integer maxTimePerIteration,
    @Required @Min(1) Integer maxRequestsPerIteration,
    @ValidationRule(value = "!('ignore_eos' in self) || self['ignore_eos'] in ['true', 'false']",
        message = "ignore_eos must be 'true' or 'false'")
    @ValidationRule(value = "!('temperature' in self) "
        + "|| self['temperature'].matches('^[-+]?([0-9]+([.][0-9]*)?|[.][0-9]+)([eE][-+]?[0-9]+)?$')",
        message = "temperature must be a number")
    Map<String, String> additionalRequestParams,
    StorageSpec dataset,
    @Required StorageSpec outputLocation,
    String resultFolderName,
    PodOverride podOverride) {

  /** The scenario forms of text generation: deterministic, normal and uniform token counts, or the dataset. */
  static final String TEXT = "'^(D[(][0-9]+,[0-9]+[)]|N[(][0-9]+,[0-9]+[)]/[(][0-9]+,[0-9]+[)]"
      + "|U[(][0-9]+,[0-9]+[)](/[(][0-9]+,[0-9]+[)])?|dataset)$'";
  /** Embedding scenarios: tokens per document, or the dataset. */
  static final String EMBEDDINGS = "'^(E[(][0-9]+[)]|dataset)$'";
  /** Image scenarios: width, height and optionally images per request, or the dataset. */
  static final String IMAGE = "'^(I[(][0-9]+,[0-9]+(,[0-9]+)?[)]|dataset)$'";
  /** Rerank scenarios: tokens per document and per query, or the dataset. */
  static final String RERANK = "'^(R[(][0-9]+,[0-9]+[)]|dataset)$'";
  /** Speech scenarios: characters of input text, or the dataset. */
  static final String SPEECH = "'^(A[(][0-9]+[)]|dataset)$'";
}
