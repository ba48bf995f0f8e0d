package dev.modelplane.operator.ome.runtime;

import dev.modelplane.api.ome.v1beta1.BaseModelSpec;
import dev.modelplane.api.ome.v1beta1.DiffusionComponent;
import dev.modelplane.api.ome.v1beta1.DiffusionPipelineSpec;
import dev.modelplane.api.ome.v1beta1.ModelFormat;
import dev.modelplane.api.ome.v1beta1.ModelFrameworkSpec;
import dev.modelplane.api.ome.v1beta1.SupportedModelFormat;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Whether a model matches one supported-format entry of a runtime, and why not: the diffusion-pipeline components the
 * entry sets equal the model's; architecture and quantization equal, and present on both sides or on neither; format
 * names equal and versions compared under the entry's operator when both are given (a version on one side only is a
 * mismatch); the framework likewise, where both absent is fine.
 */
final class FormatMatch {
  /** OME's weights when an entry's weight is 0. */
  static final long DEFAULT_FORMAT_WEIGHT = 10;
  static final long DEFAULT_FRAMEWORK_WEIGHT = 5;

  private FormatMatch() {
  }

  /** Every reason the model does not match {@code format}; empty when it matches. */
  static List<String> mismatches(BaseModelSpec model, SupportedModelFormat format) {
    List<String> reasons = new ArrayList<>();
    String pipeline = pipelineMismatch(model.diffusionPipeline(), format.diffusionPipeline());
    if (pipeline != null) {
      reasons.add(pipeline);
    }
    bothOrNeither("architecture", model.modelArchitecture(), format.modelArchitecture(), reasons);
    bothOrNeither("quantization", model.quantization(), format.quantization(), reasons);
    ModelFormat modelFormat = model.modelFormat();
    ModelFormat runtimeFormat = format.modelFormat();
    if (runtimeFormat == null) {
      reasons.add("runtime entry has no modelFormat");
    } else if (modelFormat == null || !Objects.equals(runtimeFormat.name(), modelFormat.name())) {
      reasons.add("format name mismatch (model=" + (modelFormat == null ? null : modelFormat.name()) + ", runtime="
          + runtimeFormat.name() + ")");
    } else {
      version("format", modelFormat.version(), runtimeFormat.version(), runtimeFormat.operator(), reasons);
    }
    ModelFrameworkSpec modelFramework = model.modelFramework();
    ModelFrameworkSpec runtimeFramework = format.modelFramework();
    if (modelFramework != null && runtimeFramework != null) {
      if (!Objects.equals(modelFramework.name(), runtimeFramework.name())) {
        reasons.add("framework name mismatch (model=" + modelFramework.name() + ", runtime="
            + runtimeFramework.name() + ")");
      } else {
        version("framework", modelFramework.version(), runtimeFramework.version(), runtimeFramework.operator(),
            reasons);
      }
    } else if (modelFramework == null && runtimeFramework != null) {
      reasons.add("model has no framework but runtime requires " + runtimeFramework.name());
    } else if (modelFramework != null) {
      reasons.add("model has framework " + modelFramework.name() + " but runtime has no framework requirement");
    }
    return reasons;
  }

  /**
   * The entry's score for a model it matches: format weight × priority plus framework weight × priority (weights
   * default to 1; a weight of 0 counts as OME's 10 and 5); 0 for an entry that does not match.
   */
  static long score(BaseModelSpec model, SupportedModelFormat format) {
    if (!mismatches(model, format).isEmpty()) {
      return 0;
    }
    long priority = format.priority() == null ? 1 : format.priority();
    long score = weight(format.modelFormat().weight(), DEFAULT_FORMAT_WEIGHT) * priority;
    if (format.modelFramework() != null) {
      score += weight(format.modelFramework().weight(), DEFAULT_FRAMEWORK_WEIGHT) * priority;
    }
    return score;
  }

  /** The label OME uses for a model's format in messages: {@code mt:<format>:<version>:<arch>:<quant>:<fw>:<fwv>}. */
  static String label(BaseModelSpec model) {
    StringBuilder b = new StringBuilder("mt:");
    b.append(model.modelFormat() == null ? "" : model.modelFormat().name());
    if (model.modelFormat() != null && model.modelFormat().version() != null) {
      b.append(':').append(model.modelFormat().version());
    }
    for (String part : new String[] {model.modelArchitecture(), model.quantization()}) {
      if (part != null) {
        b.append(':').append(part);
      }
    }
    if (model.modelFramework() != null) {
      b.append(':').append(model.modelFramework().name());
      if (model.modelFramework().version() != null) {
        b.append(':').append(model.modelFramework().version());
      }
    }
    return b.toString();
  }

  /** Unset is the CRD's default, 1 (so a manifest scores the same before and after the apiserver defaults it). */
  private static long weight(Long weight, long fallback) {
    return weight == null ? 1 : weight == 0 ? fallback : weight;
  }

  private static void bothOrNeither(String what, String model, String runtime, List<String> reasons) {
    if (model != null && runtime != null && !model.equals(runtime)) {
      reasons.add(what + " mismatch (model=" + model + ", runtime=" + runtime + ")");
    } else if (model == null && runtime != null) {
      reasons.add("model has no " + what + " but runtime requires " + runtime);
    } else if (model != null && runtime == null) {
      reasons.add("model has " + what + " " + model + " but runtime has no " + what + " requirement");
    }
  }

  private static void version(String what, String model, String runtime, String operator, List<String> reasons) {
    if (model != null && runtime != null) {
      if (!ModelVersion.matches(runtime, operator, model)) {
        reasons.add(what + " version mismatch (model=" + model + ", runtime=" + (operator == null ? "Equal"
            : operator) + " " + runtime + ")");
      }
    } else if (model == null && runtime != null) {
      reasons.add("model has no " + what + " version but runtime requires " + runtime);
    } else if (model != null) {
      reasons.add("model has " + what + " version " + model + " but runtime has no version requirement");
    }
  }

  private static String pipelineMismatch(DiffusionPipelineSpec model, DiffusionPipelineSpec runtime) {
    if (runtime == null) {
      return null;
    }
    if (model == null) {
      return "diffusion pipeline required by runtime but not specified in model";
    }
    if (runtime.className() != null && !runtime.className().equals(model.className())) {
      return "pipeline class mismatch (model=" + model.className() + ", runtime=" + runtime.className() + ")";
    }
    String[] names = {"scheduler", "textEncoder", "tokenizer", "transformer", "vae"};
    DiffusionComponent[] models = {model.scheduler(), model.textEncoder(), model.tokenizer(), model.transformer(),
        model.vae()};
    DiffusionComponent[] runtimes = {runtime.scheduler(), runtime.textEncoder(), runtime.tokenizer(),
        runtime.transformer(), runtime.vae()};
    for (int i = 0; i < names.length; i++) {
      String reason = componentMismatch(names[i], models[i], runtimes[i]);
      if (reason != null) {
        return reason;
      }
    }
    Map<String, DiffusionComponent> extra = runtime.additionalComponents() == null ? Map.of()
        : runtime.additionalComponents();
    for (var e : extra.entrySet()) {
      DiffusionComponent own = model.additionalComponents() == null ? null
          : model.additionalComponents().get(e.getKey());
      String reason = own == null ? "diffusion component " + e.getKey() + " missing in model"
          : componentMismatch(e.getKey(), own, e.getValue());
      if (reason != null) {
        return reason;
      }
    }
    return null;
  }

  private static String componentMismatch(String name, DiffusionComponent model, DiffusionComponent runtime) {
    if (runtime == null) {
      return null;
    }
    if (model == null) {
      return "component " + name + " required by runtime but not specified in model";
    }
    if (runtime.library() != null && !runtime.library().isEmpty() && !runtime.library().equals(model.library())) {
      return name + " library mismatch (model=" + model.library() + ", runtime=" + runtime.library() + ")";
    }
    if (runtime.type() != null && !runtime.type().isEmpty() && !runtime.type().equals(model.type())) {
      return name + " type mismatch (model=" + model.type() + ", runtime=" + runtime.type() + ")";
    }
    return null;
  }
}
