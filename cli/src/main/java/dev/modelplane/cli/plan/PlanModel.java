package dev.modelplane.cli.plan;

import dev.modelplane.common.servers.SimulatorFlags;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.simulator.physics.ModelCatalog;
import dev.modelplane.simulator.physics.ModelGeometry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The model a plan is for, and where it was read from.
 *
 * @param geometry the model's geometry
 * @param modelConfigArg what the simulator's {@code --model-config} gets: a built-in geometry's name or a
 *     config.json path
 * @param servedModelName the name clients ask for
 * @param source where the model came from (so {@code --emit} writes the same family of manifest)
 * @param gpu the GPU the input names (a preset's, a manifest's node selector), or null
 * @param tensorParallelSize the tensor parallelism the input names, or null
 * @param manifest the manifest file the model was read from, or null
 */
public record PlanModel(ModelGeometry geometry, String modelConfigArg, String servedModelName, Source source,
    String gpu, Integer tensorParallelSize, Path manifest) {

  /** Where a model came from. */
  public enum Source { MODEL_CONFIG, PRESET, LLMKUBE, OME, OTTERSCALE }

  /** A Hugging Face config.json, or a built-in geometry's name. */
  public static PlanModel fromConfig(String fileOrName) {
    Path p = Path.of(fileOrName);
    if (Files.isRegularFile(p)) {
      try {
        ModelGeometry g = ModelGeometry.read(p);
        return new PlanModel(g, p.toAbsolutePath().toString(), g.name(), Source.MODEL_CONFIG, null, null, null);
      } catch (java.io.IOException e) {
        throw new IllegalArgumentException("--model-config: cannot read " + fileOrName + ": " + e.getMessage());
      }
    }
    if (fileOrName.endsWith(".json") || fileOrName.contains("/")) {
      throw new IllegalArgumentException("--model-config: no such file " + fileOrName);
    }
    ModelGeometry g = ModelCatalog.geometry(fileOrName);
    return new PlanModel(g, g.name(), g.name(), Source.MODEL_CONFIG, null, null, null);
  }

  /** A simulator preset: its model, GPU and tensor parallelism. */
  public static PlanModel fromPreset(String name) {
    ModelCatalog.Preset p = ModelCatalog.preset(name);
    return new PlanModel(p.geometry(), p.geometry().name(), p.geometry().name(), Source.PRESET, p.gpu().name(),
        p.tensorParallel(), null);
  }

  /**
   * The model of a manifest file: an LLMKube InferenceService and/or Model, an OME InferenceService and/or
   * BaseModel/ClusterBaseModel (with its serving runtime when the file has it), or an OtterScale ModelService. The
   * geometry is the built-in one the model's source, repository or name names; the served name, GPU (node label
   * {@code nvidia.com/gpu.product}) and tensor parallelism are what the operator would give the servers.
   *
   * @throws dev.modelplane.cli.user.UserError one line naming the file, the object and the line: the file does not
   *     read or check, holds no model, or names a model without a built-in geometry
   */
  public static PlanModel fromManifest(Path file) {
    return ManifestFamilies.model(ManifestInput.read(file), file);
  }

  /**
   * The simulator flags of one replica of this model on {@code tensorParallelSize} GPUs of type {@code gpu}: the same
   * flags the dev cluster gives a model-server pod of that shape (prefix caching on).
   */
  public List<String> simulatorArgs(String gpu, int tensorParallelSize) {
    List<String> args = new ArrayList<>(List.of(VllmFlags.MODEL, servedModelName, SimulatorFlags.MODEL_CONFIG,
        modelConfigArg, SimulatorFlags.GPU, gpu, VllmFlags.TENSOR_PARALLEL_SIZE, Integer.toString(tensorParallelSize),
        SimulatorFlags.ENABLE_KVCACHE));
    return args;
  }
}
