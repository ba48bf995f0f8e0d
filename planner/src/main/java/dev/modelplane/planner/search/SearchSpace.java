package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.RouterProfile;
import dev.modelplane.simulator.physics.Calibration;
import dev.modelplane.simulator.physics.Gpu;
import dev.modelplane.simulator.physics.ModelGeometry;
import dev.modelplane.simulator.physics.StepCostModel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The configurations a plan considers: GPU types × tensor-parallel sizes × router profiles, each with 1 to
 * {@code maxReplicas} replicas. A tensor-parallel size the model cannot be split into, or at which it does not fit in
 * the GPU's memory, is left out with its reason.
 *
 * @param model the model's geometry
 * @param gpus GPU names, lower case
 * @param tensorParallelSizes the sizes asked for
 * @param profiles the router profiles
 * @param maxReplicas the most replicas a configuration may have
 */
public record SearchSpace(ModelGeometry model, List<String> gpus, List<Integer> tensorParallelSizes,
    List<RouterProfile> profiles, int maxReplicas) {
  /** Tensor-parallel sizes tried when none are given. */
  public static final List<Integer> DEFAULT_TENSOR_PARALLEL = List.of(1, 2, 4, 8);
  /** The replica cap when none is given. */
  public static final int DEFAULT_MAX_REPLICAS = 64;

  /** One GPU type, tensor-parallel size and router profile, whose replica count the search chooses. */
  public record Shape(String gpu, int tensorParallelSize, RouterProfile profile) {
    /** This shape with {@code replicas} replicas. */
    public Candidate candidate(int replicas) {
      return new Candidate(gpu, tensorParallelSize, replicas, profile);
    }
  }

  /**
   * The space; empty lists mean the defaults (h100; 1, 2, 4, 8; every profile).
   *
   * @throws IllegalArgumentException one line naming an unknown GPU, a size below 1 or a cap below 1
   */
  public SearchSpace {
    List<String> names = new ArrayList<>();
    for (String gpu : gpus.isEmpty() ? List.of(Extrapolations.MEASURED_GPU) : gpus) {
      try {
        String name = Gpu.byName(gpu).name().toLowerCase(Locale.ROOT);
        if (!names.contains(name)) {
          names.add(name);
        }
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("--gpu: " + e.getMessage());
      }
    }
    gpus = List.copyOf(names);
    for (int tp : tensorParallelSizes) {
      if (tp < 1) {
        throw new IllegalArgumentException("--tensor-parallel-size must be >= 1, got " + tp);
      }
    }
    tensorParallelSizes = List.copyOf(tensorParallelSizes.isEmpty() ? DEFAULT_TENSOR_PARALLEL
        : tensorParallelSizes.stream().distinct().sorted().toList());
    profiles = List.copyOf(profiles.isEmpty() ? List.of(RouterProfile.values())
        : profiles.stream().distinct().toList());
    if (maxReplicas < 1) {
      throw new IllegalArgumentException("--max-replicas must be >= 1, got " + maxReplicas);
    }
  }

  /** The shapes to search, in GPU, size, profile order: those the model can be split into and fits. */
  public List<Shape> shapes() {
    List<Shape> shapes = new ArrayList<>();
    for (String gpu : gpus) {
      for (int tp : tensorParallelSizes) {
        if (unfitReason(gpu, tp) == null) {
          profiles.forEach(p -> shapes.add(new Shape(gpu, tp, p)));
        }
      }
    }
    return shapes;
  }

  /** The GPU and size pairs left out, with why (for every profile). */
  public List<Rejection> unfit() {
    List<Rejection> out = new ArrayList<>();
    for (String gpu : gpus) {
      for (int tp : tensorParallelSizes) {
        String why = unfitReason(gpu, tp);
        if (why != null) {
          out.add(new Rejection(gpu, tp, null, why));
        }
      }
    }
    return out;
  }

  /** Why {@code model} cannot run on {@code tp} GPUs of type {@code gpu}, or null when it can. */
  private String unfitReason(String gpu, int tp) {
    List<String> problems = StepCostModel.problems(model, tp);
    if (!problems.isEmpty()) {
      return String.join("; ", problems);
    }
    Gpu g = Gpu.byName(gpu);
    try {
      new StepCostModel(model, g, tp, null, Calibration.H100).memory(0.9, 16, g.defaultMaxNumBatchedTokens(),
          g.defaultMaxNumSeqs());
      return null;
    } catch (IllegalArgumentException e) {
      return model.name() + " does not fit in the memory of " + tp + " " + gpu + (tp == 1 ? "" : "s") + ": "
          + e.getMessage().strip().lines().findFirst().orElse("");
    }
  }
}
