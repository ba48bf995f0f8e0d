package dev.modelplane.cli.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.cli.plan.ManifestInput.Document;
import dev.modelplane.operator.prefixrouting.PrecisePrefixStatus;
import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.simulator.physics.Gpu;
import dev.modelplane.simulator.physics.ModelGeometry;
import java.util.ArrayList;
import java.util.List;

/**
 * OtterScale ({@value ManifestInput#OTTERSCALE}) ModelService: the model a plan is for, and the same object rewritten
 * for a plan's configuration. The operator serves {@code spec.model.name} with {@code --tensor-parallel-size} from
 * {@code decode.parallelism.tensor} (then {@code engine.args}, which vLLM reads last) on that many GPUs per pod.
 */
final class OtterscaleManifest {
  private OtterscaleManifest() {
  }

  /** The model of the file's first ModelService. */
  static PlanModel model(ManifestInput in, java.nio.file.Path file) {
    Document ms = in.all(ManifestInput.OTTERSCALE, "ModelService").getFirst();
    JsonNode spec = ms.tree().path("spec");
    String name = spec.path("model").path("name").asText(null);
    ModelGeometry g = new ModelClues().add(ms, "spec.model.name", name)
        .add(ms, "spec.model.image", spec.path("model").path("image").asText(null)).geometry(in, ms);
    JsonNode decode = spec.path("decode");
    Integer tp = FlagList.integer(FlagList.strings(spec.path("engine").path("args")), LlmkubeManifest.TP_FLAGS)
        .orElse(decode.path("parallelism").path("tensor").asInt(1));
    return new PlanModel(g, g.name(), name, PlanModel.Source.OTTERSCALE, GpuNodes.gpuName(decode), tp, file);
  }

  /** The file's documents with the first ModelService set to {@code chosen}; notes receive what changed. */
  static List<ObjectNode> emit(ManifestInput in, Candidate chosen, List<String> notes) {
    List<ObjectNode> out = new ArrayList<>();
    in.documents().forEach(d -> out.add(d.tree().deepCopy()));
    ObjectNode ms = out.stream().filter(o -> ManifestInput.OTTERSCALE.equals(o.path("apiVersion").asText())
        && "ModelService".equals(o.path("kind").asText())).findFirst().orElseThrow();
    ObjectNode spec = Trees.child(ms, "spec");
    ObjectNode decode = Trees.child(spec, "decode");
    decode.put("replicas", chosen.replicas());
    Trees.child(decode, "parallelism").put("tensor", chosen.tensorParallelSize());
    ObjectNode engine = Trees.child(spec, "engine");
    FlagList.put(engine, "args", FlagList.without(FlagList.strings(engine.path("args")), LlmkubeManifest.TP_FLAGS));
    GpuNodes.select(decode, Gpu.byName(chosen.gpu()));
    if (!"nvidia".equals(spec.path("accelerator").path("type").asText())) {
      Trees.child(spec, "accelerator").put("type", "nvidia");
      notes.add("spec.accelerator.type set to nvidia: the plan is for NVIDIA GPUs");
    }
    if (spec.has("prefill")) {
      notes.add("the service has prefill pods: the plan simulated aggregated serving; they are left as they are");
    }
    ObjectNode annotations = Trees.child(Trees.child(ms, "metadata"), "annotations");
    annotations.put(PrecisePrefixStatus.CONFIG_ANNOTATION, PickerProfiles.yaml(chosen.profile()));
    if (chosen.profile() == RouterProfile.PRECISE) {
      notes.add("precise routing: the operator wires the servers' KV-cache events from the annotation; give the "
          + "picker the model's tokenizer with the annotation modelplane.dev/tokenizer");
    }
    return out;
  }
}
