package dev.modelplane.cli.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.cli.plan.ManifestInput.Document;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.simulator.physics.Gpu;
import dev.modelplane.simulator.physics.ModelGeometry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * OME ({@value ManifestInput#OME}) InferenceService with its BaseModel or ClusterBaseModel and serving runtime: the
 * model a plan is for, and the same objects rewritten for a plan's configuration. The engine's pods are the
 * runtime's {@code engineConfig} under the service's {@code engine} (runner args concatenated, the runtime's first),
 * with the chosen accelerator class's {@code tensorParallelismOverride} rewriting the tensor parallelism.
 */
final class OmeManifest {
  private static final String[] BASE_MODELS = {"BaseModel", "ClusterBaseModel"};
  private static final String[] RUNTIMES = {"ServingRuntime", "ClusterServingRuntime"};
  private static final Pattern VARIABLE = Pattern.compile("\\$\\(([A-Za-z_][A-Za-z0-9_]*)\\)");

  private OmeManifest() {
  }

  /**
   * The model of the first InferenceService (its base model and runtime from the file), else of the first base
   * model.
   */
  static PlanModel model(ManifestInput in, java.nio.file.Path file) {
    Document isvc = in.all(ManifestInput.OME, "InferenceService").stream().findFirst().orElse(null);
    String modelName = isvc == null ? null : isvc.tree().path("spec").path("model").path("name").asText(null);
    Document base = isvc == null ? in.all(ManifestInput.OME, BASE_MODELS).getFirst()
        : modelName == null ? null : in.named(modelName, ManifestInput.OME, BASE_MODELS).orElse(null);
    JsonNode baseSpec = base == null ? MissingNode.getInstance() : base.tree().path("spec");
    String sized = baseSpec.path("modelType").asText("") + "-" + baseSpec.path("modelParameterSize").asText("");
    ModelGeometry g = new ModelClues()
        .add(base, "spec.storage.storageUri", baseSpec.path("storage").path("storageUri").asText(null))
        .add(base, "spec.displayName", baseSpec.path("displayName").asText(null))
        .add(base, "metadata.name", base == null ? null : base.name())
        .add(base, "spec.modelParameterSize", sized.length() > 1 && !sized.startsWith("-") && !sized.endsWith("-")
            ? sized : null)
        .add(isvc, "spec.model.name", modelName)
        .geometry(in, isvc != null ? isvc : base);
    JsonNode engine = isvc == null ? MissingNode.getInstance() : isvc.tree().path("spec").path("engine");
    JsonNode runtime = runtime(in, isvc).map(d -> d.tree().path("spec")).orElse(MissingNode.getInstance());
    JsonNode runtimeEngine = runtime.path("engineConfig");
    String served = servedName(engine, runtimeEngine).orElse(modelName != null ? modelName : base.name());
    String accelerator = acceleratorClass(isvc == null ? MissingNode.getInstance() : isvc.tree().path("spec"));
    String gpu = Optional.ofNullable(GpuNodes.gpuName(engine)).or(() -> Optional.ofNullable(
        GpuNodes.gpuName(runtimeEngine))).or(() -> Optional.ofNullable(GpuNodes.gpuName(runtime)))
        .or(() -> Optional.ofNullable(accelerator).map(Gpu::byProduct).map(Gpu::name))
        .or(() -> Optional.ofNullable(GpuNodes.gpuName(baseSpec.path("storage")))).orElse(null);
    return new PlanModel(g, g.name(), served, PlanModel.Source.OME, gpu,
        tensorParallel(engine, runtime, accelerator), file);
  }

  /** The runtime the service names, else the first in the file (the one auto-selection would most likely take). */
  private static Optional<Document> runtime(ManifestInput in, Document isvc) {
    String named = isvc == null ? null : isvc.tree().path("spec").path("runtime").path("name").asText(null);
    if (named != null) {
      return in.named(named, ManifestInput.OME, RUNTIMES);
    }
    return in.all(ManifestInput.OME, RUNTIMES).stream().findFirst();
  }

  private static String acceleratorClass(JsonNode spec) {
    String override = spec.path("engine").path("acceleratorOverride").path("acceleratorClass").asText("");
    return !override.isEmpty() ? override : spec.path("acceleratorSelector").path("acceleratorClass").asText(null);
  }

  /** {@code --served-model-name} of the engine's merged args, its {@code $(VAR)} taken from the runners' env. */
  private static Optional<String> servedName(JsonNode engine, JsonNode runtimeEngine) {
    List<String> args = new ArrayList<>(FlagList.strings(runtimeEngine.path("runner").path("args")));
    args.addAll(FlagList.strings(engine.path("runner").path("args")));
    return FlagList.value(args, VllmFlags.SERVED_MODEL_NAME).flatMap(v -> expand(v, engine, runtimeEngine));
  }

  private static Optional<String> expand(String value, JsonNode engine, JsonNode runtimeEngine) {
    Matcher m = VARIABLE.matcher(value);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String v = env(engine, m.group(1)).or(() -> env(runtimeEngine, m.group(1))).orElse(null);
      if (v == null) {
        return Optional.empty(); // set by something the file does not show
      }
      m.appendReplacement(out, Matcher.quoteReplacement(v));
    }
    m.appendTail(out);
    return Optional.of(out.toString());
  }

  private static Optional<String> env(JsonNode component, String name) {
    for (JsonNode e : component.path("runner").path("env")) {
      if (name.equals(e.path("name").asText()) && e.has("value")) {
        return Optional.of(e.path("value").asText());
      }
    }
    return Optional.empty();
  }

  /** The accelerator class's override, else the service's flag, the runtime's flag, the GPUs either asks for. */
  private static Integer tensorParallel(JsonNode engine, JsonNode runtime, String accelerator) {
    if (accelerator != null) {
      for (JsonNode format : runtime.path("supportedModelFormats")) {
        int tp = format.path("acceleratorConfig").path(accelerator).path("tensorParallelismOverride")
            .path("tensorParallelSize").asInt(0);
        if (tp > 0) {
          return tp;
        }
      }
    }
    for (JsonNode component : List.of(engine, runtime.path("engineConfig"))) {
      var tp = FlagList.integer(FlagList.strings(component.path("runner").path("args")), LlmkubeManifest.TP_FLAGS);
      if (tp.isPresent()) {
        return tp.get();
      }
    }
    for (JsonNode component : List.of(engine, runtime.path("engineConfig"))) {
      JsonNode resources = component.path("runner").path("resources");
      int gpus = Math.max(resources.path("limits").path("nvidia.com/gpu").asInt(0),
          resources.path("requests").path("nvidia.com/gpu").asInt(0));
      if (gpus > 0) {
        return gpus;
      }
    }
    return null;
  }

  /** The file's documents with the service's engine and router set to {@code chosen}; notes receive what changed. */
  static List<ObjectNode> emit(ManifestInput in, PlanModel plan, Candidate chosen, List<String> notes) {
    List<ObjectNode> out = new ArrayList<>();
    in.documents().forEach(d -> out.add(d.tree().deepCopy()));
    ObjectNode isvc = out.stream().filter(o -> ManifestInput.OME.equals(o.path("apiVersion").asText())
        && "InferenceService".equals(o.path("kind").asText())).findFirst().orElse(null);
    if (isvc == null) {
      throw new dev.modelplane.cli.user.UserError(in.file() + ": --emit needs an OME InferenceService in the file "
          + "(it has only the base model); add one, or plan from --model-config");
    }
    ObjectNode spec = Trees.child(isvc, "spec");
    ObjectNode engine = Trees.child(spec, "engine");
    engine.put("minReplicas", chosen.replicas()).put("maxReplicas", chosen.replicas());
    if (spec.remove("acceleratorSelector") != null | engine.remove("acceleratorOverride") != null) {
      notes.add("the accelerator class is removed: its runtime overrides could change the tensor parallelism; the "
          + "node selector names the GPU");
    }
    ObjectNode runner = Trees.child(engine, "runner");
    List<String> args = FlagList.without(FlagList.strings(runner.path("args")), LlmkubeManifest.TP_FLAGS);
    args.add(VllmFlags.TENSOR_PARALLEL_SIZE + "=" + chosen.tensorParallelSize());
    FlagList.put(runner, "args", args);
    ObjectNode resources = Trees.child(runner, "resources");
    for (String kind : List.of("limits", "requests")) {
      Trees.child(resources, kind).put("nvidia.com/gpu", Integer.toString(chosen.tensorParallelSize()));
    }
    GpuNodes.select(engine, Gpu.byName(chosen.gpu()));
    String modelName = spec.path("model").path("name").asText();
    for (ObjectNode o : out) {
      boolean base = ManifestInput.OME.equals(o.path("apiVersion").asText())
          && List.of(BASE_MODELS).contains(o.path("kind").asText());
      // The engine runs only where the model was downloaded: a download pinned to one GPU product follows the plan.
      if (base && modelName.equals(o.path("metadata").path("name").asText())
          && GpuNodes.reselect(Trees.child(Trees.child(o, "spec"), "storage"), Gpu.byName(chosen.gpu()))) {
        notes.add(o.path("kind").asText() + " " + modelName + ": spec.storage downloads onto the plan's GPU nodes");
      }
    }
    if (spec.has("decoder")) {
      notes.add("the service has a decoder (prefill/decode): the plan simulated aggregated serving; the decoder is "
          + "left as it is");
    }
    if (!spec.has("router")) {
      spec.putObject("router").put("minReplicas", 1);
      notes.add("a router component is added: modelplane's router, configured by the annotation below");
    }
    ObjectNode annotations = Trees.child(Trees.child(isvc, "metadata"), "annotations");
    annotations.put(PrecisePrefixStatus.CONFIG_ANNOTATION, PickerProfiles.yaml(chosen.profile()));
    if (chosen.profile() == RouterProfile.PRECISE) {
      notes.add("precise routing: the operator wires the engine's KV-cache events from the annotation; give the "
          + "router the model's tokenizer with the annotation modelplane.dev/tokenizer");
    }
    return out;
  }
}
