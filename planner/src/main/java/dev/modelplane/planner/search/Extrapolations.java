package dev.modelplane.planner.search;

import dev.modelplane.simulator.physics.ModelGeometry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where a configuration's figures go beyond what was measured: the engine-step model is calibrated on one GPU (the
 * H100) running one model (Llama-3.1-8B) without tensor parallelism; everything else is scaled from datasheets.
 */
public final class Extrapolations {
  /** The GPU the calibration was measured on. */
  public static final String MEASURED_GPU = "h100";
  /** The model the calibration was measured with. */
  public static final String CALIBRATION_MODEL = "llama-3.1-8b";

  private Extrapolations() {
  }

  /** Plain sentences, one per extrapolation, empty when {@code candidate} runs the measured setup. */
  public static List<String> of(Candidate candidate, ModelGeometry model) {
    List<String> notes = new ArrayList<>();
    String gpu = candidate.gpu().toLowerCase(Locale.ROOT);
    if (!gpu.equals(MEASURED_GPU)) {
      notes.add("The " + gpu + " is not measured (only the H100 is): its figures are scaled from its datasheet memory "
          + "bandwidth and FLOPs.");
    }
    if (candidate.tensorParallelSize() > 1) {
      notes.add("Tensor parallelism " + candidate.tensorParallelSize() + " is not measured: its all-reduce costs are "
          + "assumptions from the GPU's datasheet link bandwidth.");
    }
    if (model != null && !model.name().equalsIgnoreCase(CALIBRATION_MODEL)) {
      notes.add(model.name() + " is not the calibration model (Llama-3.1-8B): its step times are priced from its "
          + "geometry.");
    }
    return List.copyOf(notes);
  }
}
