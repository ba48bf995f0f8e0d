package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;

/**
 * Speculative decoding in SGLang with EAGLE, EAGLE-3 or Medusa heads.
 *
 * @param enabled Turns speculative decoding on; when false or unset no speculative flag is passed, whatever else is
 *     set.
 * @param algorithm The algorithm ({@code --speculative-algorithm}).
 * @param draftModelPath Path of the draft weights inside the container ({@code --speculative-draft-model-path});
 *     needed when {@code enabled} is true.
 * @param numSteps Drafting steps per forward pass, at least 1 ({@code --speculative-num-steps}).
 * @param eagleTopK How many candidates EAGLE keeps per drafting step, at least 1 ({@code --speculative-eagle-topk}).
 * @param numDraftTokens Tokens drafted per step, at least 1; 4 by default ({@code --speculative-num-draft-tokens}).
 * @param acceptThresholdSingle Acceptance threshold, 0 to 1, for tokens that do not match in single-sequence
 *     verification: a draft token is kept when its probability exceeds p times this value
 *     ({@code --speculative-accept-threshold-single}). Only used when {@code enabled} is true.
 * @param acceptThresholdAcc Acceptance threshold, 0 to 1, for the bonus token after an accepted draft sequence
 *     ({@code --speculative-accept-threshold-acc}). Only used when {@code enabled} is true.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record SglangSpeculativeConfig(
    Boolean enabled,
    SglangSpeculativeAlgorithm algorithm,
    String draftModelPath,
    @Min(1) Integer numSteps,
    @Min(1) Integer eagleTopK,
    @Min(1) @Default("4") Integer numDraftTokens,
    @Min(0) @Max(1) Double acceptThresholdSingle,
    @Min(0) @Max(1) Double acceptThresholdAcc) {
}
