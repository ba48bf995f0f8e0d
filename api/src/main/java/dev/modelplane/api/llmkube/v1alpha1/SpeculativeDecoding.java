package dev.modelplane.api.llmkube.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;

/**
 * Speculative decoding for the {@code llamacpp} runtime: a cheap drafter proposes several tokens that the main model
 * checks in one pass. Other runtimes must not set it (vLLM and SGLang have their own {@code speculative} blocks).
 * Whether it helps, and with which {@code nDraftMax}, depends on model and hardware and has to be measured.
 *
 * @param type The method ({@code --spec-type}); {@code mtp} is passed as {@code draft-mtp}, {@code draft} as
 *     {@code draft-simple}, and {@code none} or {@code disabled} pass no flag.
 * @param draftModelRef A Model in the same namespace holding the draft weights. It is downloaded, cached and mounted
 *     like the main model, and the service waits for it to be Ready (and fails when it does not exist). Its path is
 *     passed as {@code -md}. Use it when the drafter is a model of its own; cannot be combined with
 *     {@code draftModel}.
 * @param draftModel One of the files listed in the main Model's {@code files} that holds the draft weights (a
 *     companion drafter shipped beside the main GGUF); its staged path is passed as {@code -md}. 1 to 253 characters;
 *     cannot be combined with {@code draftModelRef}.
 * @param nDraftMax Most tokens drafted per step, at least 1 ({@code --spec-draft-n-max}). When unset llama.cpp's own
 *     default applies.
 * @param pMin Lowest probability, 0 to 1, a drafted token may have for drafting to go on ({@code --spec-draft-p-min}).
 *     When unset llama.cpp's own default applies.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@ValidationRule(value = "!(self.type in ['draft','draft-simple','draft-eagle3','draft-dflash','draft-dspark']) || "
    + "((has(self.draftModelRef) && self.draftModelRef.size() > 0) || (has(self.draftModel) && "
    + "self.draftModel.size() > 0))",
    message = "this speculative decoding type needs draft weights: set draftModelRef to a Model in the same "
        + "namespace, or draftModel to a file in Model.files")
@ValidationRule(value = "(self.type in ['draft','draft-simple','draft-eagle3','draft-dflash','draft-dspark',"
    + "'draft-mtp']) || ((!has(self.draftModelRef) || self.draftModelRef.size() == 0) && (!has(self.draftModel) || "
    + "self.draftModel.size() == 0))",
    message = "draft weights (draftModelRef or draftModel) are only valid for the draft-model types (draft-simple, "
        + "draft-eagle3, draft-dflash, draft-dspark, draft-mtp); the ngram types need no draft weights")
@ValidationRule(value = "!((has(self.draftModelRef) && self.draftModelRef.size() > 0) && (has(self.draftModel) && "
    + "self.draftModel.size() > 0))",
    message = "set only one of draftModelRef (a separate Model CR) and draftModel (a file in Model.files), not both")
public record SpeculativeDecoding(
    @Required SpeculativeDecodingType type,
    String draftModelRef,
    @Size(min = 1, max = 253) String draftModel,
    @Min(1) Integer nDraftMax,
    @Min(0) @Max(1) Double pMin) {
}
