package dev.modelplane.operator.llmkube.runtime;

import dev.modelplane.operator.modelsource.ModelLayout;
import dev.modelplane.operator.modelsource.ModelSource;
import dev.modelplane.operator.llmkube.runtime.ArgList.Flag;

/**
 * What a server that accepts a Hugging Face repository id (vLLM, SGLang, TGI) is told to load: the repository and
 * its pinned revision when the server fetches the model from the hub itself, else the path the model is staged at in
 * the container. (llama.cpp spells the two cases with different flags and is not one of them.)
 *
 * @param model the repository id ({@code org/name}) or the model's path in the container
 * @param revision the revision the repository id is pinned to, or null (always null for a path)
 */
record ModelArgument(String model, String revision) {

  /** The argument for a model laid out as {@code layout}. */
  static ModelArgument of(ModelLayout layout) {
    if (layout.staging() == ModelLayout.Staging.RUNTIME && layout.source() instanceof ModelSource.HuggingFace hf) {
      return new ModelArgument(hf.repo(), hf.revision());
    }
    return new ModelArgument(layout.modelPath(), null);
  }

  /** Adds the model as a positional argument, then {@code revisionFlag} for a pinned repository. */
  void addPositional(ArgList args, Flag revisionFlag) {
    args.always(model);
    addRevision(args, revisionFlag);
  }

  /** Adds {@code modelFlag <model>}, then {@code revisionFlag} for a pinned repository. */
  void addOption(ArgList args, Flag modelFlag, Flag revisionFlag) {
    args.option(modelFlag, model);
    addRevision(args, revisionFlag);
  }

  private void addRevision(ArgList args, Flag revisionFlag) {
    if (revision != null) {
      args.option(revisionFlag, revision);
    }
  }
}
