package dev.modelplane.simulator.physics;

import dev.modelplane.simulator.physics.ModelGeometry.Moe;
import dev.modelplane.simulator.physics.ModelGeometry.Precision;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Built-in model geometries (the figures of each model's published Hugging Face {@code config.json}) and the named
 * presets: a geometry on a GPU with a tensor-parallel size. Everything else a preset's engine does — step times, KV
 * capacity, batch limits — follows from these through {@link StepCostModel}.
 */
public final class ModelCatalog {
  private ModelCatalog() {
  }

  private static final ModelGeometry[] GEOMETRIES = {
      dense("llama-3.1-8b", 4096, 14336, 32, 32, 8, 128, 128_256, false, 131_072),
      dense("llama-3.1-70b", 8192, 28672, 80, 64, 8, 128, 128_256, false, 131_072),
      dense("llama-3.2-3b", 3072, 8192, 28, 24, 8, 128, 128_256, true, 131_072),
      dense("llama-3.2-1b", 2048, 8192, 16, 32, 8, 64, 128_256, true, 131_072),
      dense("qwen2.5-7b", 3584, 18944, 28, 28, 4, 128, 152_064, false, 32_768),
      dense("qwen2.5-0.5b", 896, 4864, 24, 14, 2, 64, 151_936, true, 32_768),
      new ModelGeometry("qwen3-30b-a3b", 2048, 6144, 48, 32, 4, 128, 151_936, false, 40_960, Precision.BF16,
          new Moe(128, 8, 768, 0, 0), null),
      new ModelGeometry("mixtral-8x7b", 4096, 14336, 32, 32, 8, 128, 32_000, false, 32_768, Precision.BF16,
          new Moe(8, 2, 14336, 0, 0), null),
  };

  /**
   * A named model on named hardware.
   *
   * @param name the {@code --preset} value
   * @param description one line for tables and help
   * @param geometry the model
   * @param gpu the GPU
   * @param tensorParallel GPUs per replica
   */
  public record Preset(String name, String description, ModelGeometry geometry, Gpu gpu, int tensorParallel) {
  }

  private static final Preset[] PRESETS = {
      new Preset("llama-3.1-8b-h100", "Llama-3.1-8B, BF16, one H100 80GB (the calibration point)",
          geometry("llama-3.1-8b"), Gpu.H100, 1),
      new Preset("llama-3.1-70b-h100-tp4", "Llama-3.1-70B, BF16, 4x H100 80GB (TP=4)", geometry("llama-3.1-70b"),
          Gpu.H100, 4),
      new Preset("llama-3.1-70b-h100-tp8", "Llama-3.1-70B, BF16, 8x H100 80GB (TP=8)", geometry("llama-3.1-70b"),
          Gpu.H100, 8),
      new Preset("small-3b-l40s", "Llama-3.2-3B, BF16, one L40S 48GB", geometry("llama-3.2-3b"), Gpu.byName("l40s"),
          1),
      new Preset("qwen3-30b-a3b-h100", "Qwen3-30B-A3B (MoE, 128 experts, 8 active), BF16, one H100 80GB",
          geometry("qwen3-30b-a3b"), Gpu.H100, 1),
      new Preset("mixtral-8x7b-h100-tp2", "Mixtral-8x7B (MoE, 8 experts, 2 active), BF16, 2x H100 80GB (TP=2)",
          geometry("mixtral-8x7b"), Gpu.H100, 2),
  };

  private static ModelGeometry dense(String name, int hidden, int intermediate, int layers, int heads, int kvHeads,
      int headDim, int vocab, boolean tied, int maxPositions) {
    return new ModelGeometry(name, hidden, intermediate, layers, heads, kvHeads, headDim, vocab, tied, maxPositions,
        Precision.BF16, null, null);
  }

  /** Every built-in geometry. */
  public static List<ModelGeometry> geometries() {
    return List.of(GEOMETRIES);
  }

  /** Every preset, in a stable order. */
  public static List<Preset> presets() {
    return List.of(PRESETS);
  }

  /** Preset names joined by ", ". */
  public static String presetNames() {
    return Arrays.stream(PRESETS).map(Preset::name).collect(Collectors.joining(", "));
  }

  /** Geometry names joined by ", ". */
  public static String geometryNames() {
    return Arrays.stream(GEOMETRIES).map(ModelGeometry::name).collect(Collectors.joining(", "));
  }

  /** A built-in geometry by name (case-insensitive). */
  public static ModelGeometry geometry(String name) {
    for (ModelGeometry g : GEOMETRIES) {
      if (g.name().equalsIgnoreCase(name.trim())) {
        return g;
      }
    }
    throw new IllegalArgumentException("unknown model \"" + name + "\"; built in: " + geometryNames());
  }

  /** A preset by name (case-insensitive). */
  public static Preset preset(String name) {
    for (Preset p : PRESETS) {
      if (p.name().equalsIgnoreCase(name.trim())) {
        return p;
      }
    }
    throw new IllegalArgumentException("unknown preset \"" + name + "\"; known: " + presetNames());
  }

  /**
   * The built-in geometry a served model name most likely is ({@code meta-llama/Llama-3.1-8B-Instruct} →
   * llama-3.1-8b): the family and size in the name must both match; null when none does.
   */
  public static ModelGeometry guess(String modelName) {
    if (modelName == null) {
      return null;
    }
    String n = modelName.toLowerCase(Locale.ROOT).replace('_', '-');
    for (ModelGeometry g : GEOMETRIES) {
      String[] parts = g.name().split("-");
      String family = parts[0].replaceAll("[0-9.]+$", "");
      String size = g.name().substring(g.name().lastIndexOf('-') + 1);
      if (n.contains(family) && n.matches(".*(^|[^0-9.])" + java.util.regex.Pattern.quote(size) + "([^0-9.a-z]|$).*")) {
        return g;
      }
    }
    return null;
  }
}
