package dev.modelplane.cli.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.cli.plan.ManifestInput.Document;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.operator.prefixrouting.KvEventsWiring;
import dev.modelplane.operator.prefixrouting.PrecisePrefixSettings;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.simulator.physics.Gpu;
import dev.modelplane.simulator.physics.ModelGeometry;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;

/**
 * LLMKube ({@value ManifestInput#LLMKUBE}) Model and InferenceService: the model a plan is for, and the same objects
 * rewritten for a plan's configuration. The operator serves the model under the service's {@code modelRef} and gives
 * the pod the Model's {@code spec.hardware.gpu.count} GPUs (else {@code spec.resources.gpu}).
 */
final class LlmkubeManifest {
  static final String[] TP_FLAGS = {VllmFlags.TENSOR_PARALLEL_SIZE, VllmFlags.TP};
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private LlmkubeManifest() {
  }

  /** The model of the first InferenceService (with its Model from the file), else of the first Model. */
  static PlanModel model(ManifestInput in, java.nio.file.Path file) {
    Document isvc = in.all(ManifestInput.LLMKUBE, "InferenceService").stream().findFirst().orElse(null);
    Document model = isvc == null ? in.all(ManifestInput.LLMKUBE, "Model").getFirst()
        : in.named(isvc.tree().path("spec").path("modelRef").asText(), ManifestInput.LLMKUBE, "Model").orElse(null);
    String modelRef = isvc != null ? isvc.tree().path("spec").path("modelRef").asText() : model.name();
    ModelGeometry g = new ModelClues()
        .add(model, "spec.source", model == null ? null : model.tree().path("spec").path("source").asText(null))
        .add(model, "metadata.name", model == null ? null : model.name())
        .add(isvc, "spec.modelRef", isvc == null ? null : modelRef)
        .geometry(in, isvc != null ? isvc : model);
    JsonNode spec = isvc == null ? NODES.objectNode() : isvc.tree().path("spec");
    List<String> extra = FlagList.strings(spec.path("extraArgs"));
    String served = FlagList.value(extra, VllmFlags.SERVED_MODEL_NAME).orElse(modelRef);
    return new PlanModel(g, g.name(), served, PlanModel.Source.LLMKUBE, GpuNodes.gpuName(spec),
        tensorParallel(spec, model == null ? NODES.objectNode() : model.tree().path("spec")), file);
  }

  private static Integer tensorParallel(JsonNode spec, JsonNode modelSpec) {
    for (String config : List.of("vllmConfig", "sglangConfig")) {
      int tp = spec.path(config).path("tensorParallelSize").asInt(0);
      if (tp > 0) {
        return tp;
      }
    }
    var fromArgs = FlagList.integer(FlagList.strings(spec.path("extraArgs")), TP_FLAGS);
    if (fromArgs.isPresent()) {
      return fromArgs.get();
    }
    // The operator's GPU count: the Model's, else the service's resources, else one for an enabled GPU.
    JsonNode gpu = modelSpec.path("hardware").path("gpu");
    int count = gpu.path("count").asInt(0) > 0 ? gpu.path("count").asInt()
        : spec.path("resources").path("gpu").asInt(0);
    if (count > 0) {
      return count;
    }
    return gpu.path("enabled").asBoolean(false) ? Integer.valueOf(1) : null;
  }

  /** The file's documents with the service and its Model set to {@code chosen}; notes receive what changed. */
  static List<ObjectNode> emit(ManifestInput in, PlanModel plan, Candidate chosen, List<String> notes) {
    List<ObjectNode> out = new ArrayList<>();
    in.documents().forEach(d -> out.add(d.tree().deepCopy()));
    ObjectNode isvc = out.stream().filter(o -> is(o, "InferenceService")).findFirst().orElse(null);
    if (isvc == null) {
      ObjectNode model = out.stream().filter(o -> is(o, "Model")).findFirst().orElseThrow();
      isvc = service(model.path("metadata").path("name").asText(), chosen);
      out.add(isvc);
      notes.add("the file has no InferenceService: one serving its Model with vLLM is added");
    }
    String modelRef = isvc.path("spec").path("modelRef").asText();
    for (ObjectNode o : out) {
      if (is(o, "Model") && o.path("metadata").path("name").asText().equals(modelRef)) {
        modelGpus(o, chosen.tensorParallelSize());
      }
    }
    service(isvc, plan, chosen, notes);
    return out;
  }

  /** A Model and an InferenceService serving {@code plan}'s model as {@code chosen} says. */
  static List<ObjectNode> pair(PlanModel plan, Candidate chosen, List<String> notes) {
    ModelGeometry g = plan.geometry();
    String name = modelName(plan);
    ObjectNode model = NODES.objectNode().put("apiVersion", ManifestInput.LLMKUBE).put("kind", "Model");
    model.putObject("metadata").put("name", name);
    String repo = HuggingFaceRepos.of(g.name());
    ObjectNode spec = model.putObject("spec").put("source", "hf://" + (repo == null ? "REPLACE/" + name : repo))
        .put("format", "safetensors");
    if (repo == null) {
      notes.add("set the Model's spec.source to the model's Hugging Face repository");
    }
    spec.putObject("hardware").put("accelerator", "cuda");
    modelGpus(model, chosen.tensorParallelSize());
    ObjectNode isvc = service(name, chosen);
    service(isvc, plan, chosen, notes);
    notes.add("LLMKube serves the model under its Model's name: clients send \"model\": \"" + name + "\"");
    return List.of(model, isvc);
  }

  /** The Model's name {@link #pair} writes: the geometry's name as a DNS label. */
  static String modelName(PlanModel plan) {
    return plan.geometry().name().toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
  }

  private static ObjectNode service(String modelRef, Candidate chosen) {
    ObjectNode isvc = NODES.objectNode().put("apiVersion", ManifestInput.LLMKUBE).put("kind", "InferenceService");
    isvc.putObject("metadata").put("name", modelRef);
    ObjectNode spec = isvc.putObject("spec").put("modelRef", modelRef).put("runtime", "vllm");
    spec.putObject("vllmConfig").put("enablePrefixCaching", true);
    return isvc;
  }

  private static void modelGpus(ObjectNode model, int tp) {
    ObjectNode hardware = Trees.child(Trees.child(model, "spec"), "hardware");
    if (!hardware.has("accelerator") || "cpu".equals(hardware.path("accelerator").asText())) {
      hardware.put("accelerator", "cuda");
    }
    Trees.child(hardware, "gpu").put("enabled", true).put("count", tp);
  }

  private static void service(ObjectNode isvc, PlanModel plan, Candidate chosen, List<String> notes) {
    ObjectNode spec = Trees.child(isvc, "spec");
    int tp = chosen.tensorParallelSize();
    spec.put("replicas", chosen.replicas());
    if (chosen.replicas() > 10) {
      notes.add("LLMKube allows at most 10 replicas per InferenceService: split the " + chosen.replicas()
          + " replicas over several services");
    }
    if (spec.remove("autoscaling") != null) {
      notes.add("spec.autoscaling removed: the plan is for a fixed number of replicas");
    }
    Trees.child(spec, "resources").put("gpu", tp);
    String runtime = spec.path("runtime").asText("llamacpp");
    if (runtime.equals("vllm") || runtime.equals("sglang")) {
      Trees.child(spec, runtime + "Config").put("tensorParallelSize", tp);
    } else {
      notes.add("runtime " + runtime + " has no tensor parallelism; the plan simulated vLLM");
    }
    FlagList.put(spec, "extraArgs", FlagList.without(FlagList.strings(spec.path("extraArgs")), TP_FLAGS));
    GpuNodes.select(spec, Gpu.byName(chosen.gpu()));
    if (chosen.profile() == RouterProfile.PRECISE && runtime.equals("vllm")) {
      publishKvEvents(spec, plan.servedModelName(), notes);
    }
    notes.add("LLMKube runs no endpoint picker: run the router over these pods with the configuration below");
  }

  /** The vLLM flags and environment the precise index needs, as the operator renders them for its own pickers. */
  private static void publishKvEvents(ObjectNode spec, String model, List<String> notes) {
    Container c = new Container();
    c.setArgs(new ArrayList<>(FlagList.strings(spec.path("extraArgs"))));
    c.setEnv(new ArrayList<>(spec.has("env") ? List.of(Serialization.jsonMapper().convertValue(spec.get("env"),
        EnvVar[].class)) : List.of()));
    PrecisePrefixSettings scorer = PrecisePrefixSettings.of(PickerProfiles.yaml(RouterProfile.PRECISE)).orElseThrow();
    int port = spec.path("containerPort").asInt(8000); // the pod's port, which the router's pool names
    KvEventsWiring.apply(c, scorer, new KvEventsWiring.Server(model, port, null, false))
        .forEach(p -> notes.add("precise routing: " + p));
    FlagList.put(spec, "extraArgs", c.getArgs());
    spec.set("env", Serialization.jsonMapper().valueToTree(c.getEnv()));
  }

  private static boolean is(ObjectNode o, String kind) {
    return ManifestInput.LLMKUBE.equals(o.path("apiVersion").asText()) && kind.equals(o.path("kind").asText());
  }
}
