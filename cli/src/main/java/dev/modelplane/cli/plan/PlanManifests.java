package dev.modelplane.cli.plan;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.modelplane.operator.render.Yaml;
import dev.modelplane.planner.search.Candidate;
import dev.modelplane.planner.workload.Workload;
import dev.modelplane.simulator.physics.Gpu;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code plan --emit}: the manifests of the configuration a plan chose, in the family the model came from — the
 * input file's objects with replicas, GPUs per replica, tensor parallelism, GPU node selection and router
 * configuration set; from {@code --model-config} or {@code --preset}, an LLMKube Model and InferenceService.
 */
public final class PlanManifests {
  private PlanManifests() {
  }

  /**
   * The YAML (documents led by a comment saying which configuration they are and what was changed).
   *
   * @param model the plan's model, as read by {@link PlanModel}'s factories
   * @param chosen the configuration to write
   * @param workload the plan's workload (its LoRA adapters), or null
   */
  public static String emit(PlanModel model, Candidate chosen, Workload workload) {
    Gpu.byName(chosen.gpu()); // an unknown GPU fails here, before anything is written
    List<String> notes = new ArrayList<>();
    ManifestInput in = model.manifest() == null ? null : ManifestInput.read(model.manifest());
    List<ObjectNode> objects = switch (model.source()) {
      case MODEL_CONFIG, PRESET -> LlmkubeManifest.pair(model, chosen, notes);
      case LLMKUBE -> LlmkubeManifest.emit(in, model, chosen, notes);
      case OME -> OmeManifest.emit(in, model, chosen, notes);
      case OTTERSCALE -> OtterscaleManifest.emit(in, chosen, notes);
    };
    if (in != null) {
      List<ManifestInput.Document> services = in.documents().stream().filter(ManifestFamilies::serves).toList();
      if (services.size() > 1) {
        notes.add("the file holds " + services.size() + " services: only the first, " + services.getFirst().who()
            + ", is set to the plan");
      }
    }
    Set<String> adapters = workload == null ? Set.of() : new TreeSet<>(workload.adapters());
    if (!adapters.isEmpty()) {
      notes.add("the workload asks for LoRA adapters " + String.join(", ", adapters) + ": serve them on every "
          + "replica (vLLM --enable-lora --lora-modules NAME=PATH, or the family's own adapter objects); the "
          + "manifest does not name their weights");
    }
    StringBuilder out = new StringBuilder(header(model, chosen, notes));
    for (ObjectNode o : objects) {
      out.append(Yaml.write(o));
    }
    return out.toString();
  }

  private static String header(PlanModel model, Candidate chosen, List<String> notes) {
    Gpu gpu = Gpu.byName(chosen.gpu());
    boolean written = model.source() == PlanModel.Source.MODEL_CONFIG || model.source() == PlanModel.Source.PRESET;
    String served = written ? LlmkubeManifest.modelName(model) : model.servedModelName();
    StringBuilder h = new StringBuilder();
    h.append("# modelplane plan: ").append(chosen.replicas()).append(chosen.replicas() == 1 ? " replica" : " replicas")
        .append(" of ").append(model.geometry().name()).append(" (served as \"").append(served)
        .append("\"), each on ").append(chosen.tensorParallelSize()).append(" x ").append(gpu.product())
        .append(" (tensor parallelism ").append(chosen.tensorParallelSize()).append("), ").append(chosen.gpus())
        .append(" GPUs in all; router profile ").append(chosen.profile().label()).append('\n');
    h.append("# from ").append(switch (model.source()) {
      case MODEL_CONFIG -> "--model-config " + model.modelConfigArg();
      case PRESET -> "--preset (" + model.geometry().name() + ")";
      default -> model.manifest().getFileName() + " (its comments are not kept)";
    }).append("; GPU nodes selected by ").append(GpuNodes.LABEL).append('=').append(GpuNodes.labelValue(gpu))
        .append('\n');
    for (String note : notes) {
      h.append("# note: ").append(note).append('\n');
    }
    if (written || model.source() == PlanModel.Source.LLMKUBE) {
      h.append("# router configuration (modelplane router --config FILE):\n");
      PickerProfiles.yaml(chosen.profile()).lines().forEach(l -> h.append("#   ").append(l).append('\n'));
    }
    return h.toString();
  }
}
