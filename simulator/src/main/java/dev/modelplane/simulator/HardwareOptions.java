package dev.modelplane.simulator;

import dev.modelplane.common.servers.SimulatorFlags;
import dev.modelplane.common.servers.VllmFlags;
import dev.modelplane.simulator.physics.Calibration;
import dev.modelplane.simulator.physics.Gpu;
import dev.modelplane.simulator.physics.ModelCatalog;
import dev.modelplane.simulator.physics.ModelGeometry;
import dev.modelplane.simulator.physics.StepCostModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Option;

/**
 * The model and hardware the engine-step model prices: a named preset, or a model described by its Hugging Face
 * {@code config.json} (or a built-in geometry's name) on a GPU of the table, split across GPUs by tensor parallelism.
 * Shared by the simulator and {@code simulator profile}.
 */
public final class HardwareOptions {
  @Option(names = SimulatorFlags.PRESET,
      description = "A model on a GPU (modelplane): ${sys:modelplane.simulator.presets}. Times engine steps from the "
          + "model's geometry and the GPU; --gpu and --tensor-parallel-size override its hardware.")
  String preset;

  @Option(names = SimulatorFlags.MODEL_CONFIG, paramLabel = "FILE|NAME",
      description = "The model's Hugging Face config.json, or a built-in geometry: "
          + "${sys:modelplane.simulator.geometries} (modelplane).")
  String modelConfig;

  @Option(names = SimulatorFlags.GPU,
      description = "GPU of the engine-step model: ${sys:modelplane.simulator.gpus} (default: the preset's, else "
          + "h100). (modelplane)")
  String gpu;

  @Option(names = {VllmFlags.TENSOR_PARALLEL_SIZE, VllmFlags.TP},
      description = "GPUs one replica is split across (default: the preset's, else 1). (vLLM's flag)")
  Integer tensorParallelSize;

  @Option(names = VllmFlags.GPU_MEMORY_UTILIZATION, description = "Share of GPU memory for weights, activations and KV "
      + "cache; sets the KV capacity (default ${DEFAULT-VALUE}). (vLLM's flag)")
  double gpuMemoryUtilization = 0.9;

  @Option(names = VllmFlags.KV_CACHE_DTYPE, description = "auto | fp8: the KV cache's number format (default "
      + "${DEFAULT-VALUE}: the model's 16-bit type). (vLLM's flag)")
  String kvCacheDtype = "auto";

  static {
    System.setProperty("modelplane.simulator.presets", ModelCatalog.presetNames());
    System.setProperty("modelplane.simulator.geometries", ModelCatalog.geometryNames());
    System.setProperty("modelplane.simulator.gpus", Gpu.names());
  }

  private StepCostModel resolved;

  /** Whether a model was chosen (a preset or a config). */
  public boolean chosen() {
    return notBlank(preset) || notBlank(modelConfig);
  }

  /** The preset's name, or null. */
  public String presetName() {
    return notBlank(preset) ? preset.trim() : null;
  }

  /** Problems with these options (empty when valid or when nothing was chosen). */
  public List<String> problems() {
    List<String> p = new ArrayList<>();
    if (notBlank(preset) && notBlank(modelConfig)) {
      p.add("--preset and --model-config exclude each other");
      return p;
    }
    if (!(gpuMemoryUtilization > 0 && gpuMemoryUtilization <= 1)) {
      p.add("--gpu-memory-utilization must be within (0, 1]");
    }
    if (!List.of("auto", "fp8", "fp8_e4m3", "fp8_e5m2").contains(kvCacheDtype.toLowerCase(Locale.ROOT))) {
      p.add("--kv-cache-dtype must be auto or fp8, got \"" + kvCacheDtype + "\"");
    }
    if (tensorParallelSize != null && tensorParallelSize < 1) {
      p.add("--tensor-parallel-size must be >= 1");
    }
    if (!p.isEmpty() || !chosen() && gpu == null && tensorParallelSize == null) {
      return p;
    }
    if (!chosen()) {
      p.add("--gpu and --tensor-parallel-size need --preset or --model-config");
      return p;
    }
    try {
      costModel();
    } catch (IllegalArgumentException e) {
      p.add(e.getMessage());
    }
    return p;
  }

  /** The engine-step cost model of the chosen model and hardware, or null when none was chosen. */
  public StepCostModel costModel() {
    if (!chosen()) {
      return null;
    }
    if (resolved == null) {
      ModelCatalog.Preset p = notBlank(preset) ? ModelCatalog.preset(preset) : null;
      ModelGeometry geometry = p != null ? p.geometry() : geometry(modelConfig.trim());
      Gpu g = gpu != null ? Gpu.byName(gpu) : p != null ? p.gpu() : Gpu.H100;
      int tp = tensorParallelSize != null ? tensorParallelSize : p != null ? p.tensorParallel() : 1;
      ModelGeometry.Precision kv = "auto".equalsIgnoreCase(kvCacheDtype) ? null : ModelGeometry.Precision.FP8;
      resolved = new StepCostModel(geometry, g, tp, kv, Calibration.H100);
    }
    return resolved;
  }

  private static ModelGeometry geometry(String value) {
    Path path = Path.of(value);
    if (Files.isRegularFile(path)) {
      try {
        return ModelGeometry.read(path);
      } catch (IOException e) {
        throw new IllegalArgumentException("--model-config: cannot read " + value + ": " + e.getMessage());
      }
    }
    if (value.endsWith(".json") || value.contains("/")) {
      throw new IllegalArgumentException("--model-config: no such file " + value);
    }
    try {
      return ModelCatalog.geometry(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--model-config: neither a file nor a built-in model: " + e.getMessage());
    }
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }

  // ---- fluent setters (tests, embedding) -----------------------------------------------------------

  HardwareOptions preset(String v) {
    preset = v;
    resolved = null;
    return this;
  }

  HardwareOptions modelConfig(String v) {
    modelConfig = v;
    resolved = null;
    return this;
  }

  HardwareOptions gpu(String v) {
    gpu = v;
    resolved = null;
    return this;
  }

  HardwareOptions tensorParallelSize(int v) {
    tensorParallelSize = v;
    resolved = null;
    return this;
  }

  HardwareOptions gpuMemoryUtilization(double v) {
    gpuMemoryUtilization = v;
    return this;
  }
}
