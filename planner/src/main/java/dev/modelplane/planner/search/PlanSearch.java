package dev.modelplane.planner.search;

import dev.modelplane.planner.fleet.FleetResult;
import dev.modelplane.planner.workload.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Finds, for every shape of a {@link SearchSpace}, the fewest replicas that meet every objective, and ranks the
 * results. Latency is assumed to fall (and throughput to rise) as replicas are added, so each shape grows the count
 * 1, 2, 4, … until the objectives are met or the cap is reached, then bisects; a shape whose neighbour (another
 * router profile, a smaller tensor-parallel size) is answered starts from that answer instead. Runs go one after
 * another; their total is capped, and shapes not reached within the cap are reported, not guessed.
 */
public final class PlanSearch {
  /** Share of requests that may fail (be shed, refused or time out) in a plan that meets its objectives. */
  public static final double MAX_FAILED_SHARE = 0.01;
  /** Runs a search may take when no cap is given. */
  public static final int DEFAULT_MAX_EVALUATIONS = 400;

  private final Evaluator evaluator;
  private final List<Slo> slos;
  private final Prices prices;
  private final int maxEvaluations;
  private final Consumer<String> progress;
  private SimulationTotals totals = SimulationTotals.NONE;

  /**
   * @param evaluator predicts how a configuration serves the workload
   * @param slos the objectives, at least one
   * @param prices GPU prices, {@link Prices#NONE} to rank by GPU count
   * @param maxEvaluations the most runs the search and its sweeps may take
   * @param progress told one line per run (e.g. for a terminal); never null
   */
  public PlanSearch(Evaluator evaluator, List<Slo> slos, Prices prices, int maxEvaluations,
      Consumer<String> progress) {
    if (slos.isEmpty()) {
      throw new IllegalArgumentException("--slo: give at least one objective, e.g. --slo ttft-p90=500ms");
    }
    if (maxEvaluations < 1) {
      throw new IllegalArgumentException("the evaluation cap must be >= 1, got " + maxEvaluations);
    }
    this.evaluator = evaluator;
    this.slos = List.copyOf(slos);
    this.prices = prices;
    this.maxEvaluations = maxEvaluations;
    this.progress = progress;
  }

  /** The runs so far and what they took. */
  public SimulationTotals totals() {
    return totals;
  }

  /** Searches {@code space} for {@code workload}. */
  public PlanOutcome search(SearchSpace space, Workload workload) {
    prices.requireAll(space.gpus());
    List<Rejection> rejected = new ArrayList<>(space.unfit());
    List<Plan> plans = new ArrayList<>();
    StartingPoints starts = new StartingPoints(space.maxReplicas());
    for (SearchSpace.Shape shape : space.shapes()) {
      ShapeAnswer answer = fewestReplicas(shape, space, workload, starts.of(shape));
      if (answer.plan() != null) {
        plans.add(answer.plan());
        starts.found(shape, answer.plan().candidate().replicas());
      } else {
        rejected.add(new Rejection(shape.gpu(), shape.tensorParallelSize(), shape.profile(), answer.reason()));
        if (answer.atCap()) {
          starts.found(shape, space.maxReplicas());
        }
      }
    }
    plans.sort(ranking());
    return new PlanOutcome(plans, rejected, workload.describe(), slos, prices.priced(), totals);
  }

  /**
   * The plan for {@code shape} with the fewest replicas meeting every objective, or why there is none. Starts at
   * {@code start} (a neighbouring shape's answer, else 1), gallops up while the objectives are missed (steps 1, 2,
   * 4, …) or, when met at once, down until they are missed, then bisects the bracket.
   */
  private ShapeAnswer fewestReplicas(SearchSpace.Shape shape, SearchSpace space, Workload workload, int start) {
    Map<Integer, FleetResult> runs = new HashMap<>();
    int max = space.maxReplicas();
    int failing = 0; // the most replicas known to miss (none need not be tried)
    int meeting = -1; // the fewest known to meet
    int r = Math.max(1, Math.min(start, max));
    for (int step = 1; meeting < 0; step *= 2) {
      FleetResult result = run(shape.candidate(r), workload, runs);
      if (result == null) {
        return ShapeAnswer.rejected(budgetReason(), false);
      }
      if (shortfall(result) == null) {
        meeting = r;
      } else if (r == max) {
        return ShapeAnswer.rejected("even " + r + " replica" + (r == 1 ? "" : "s") + " (--max-replicas) "
            + shortfall(result), true);
      } else {
        failing = r;
        r = (int) Math.min(max, (long) r + step);
      }
    }
    if (failing == 0) { // met at the start: look below it
      for (int step = 1; meeting - step > 0; step *= 2) {
        FleetResult result = run(shape.candidate(meeting - step), workload, runs);
        if (result == null) {
          return ShapeAnswer.of(plan(shape.candidate(meeting), runs.get(meeting), space));
        }
        if (shortfall(result) != null) {
          failing = meeting - step;
          break;
        }
        meeting -= step;
      }
    }
    while (meeting - failing > 1) {
      int mid = (failing + meeting) >>> 1;
      FleetResult result = run(shape.candidate(mid), workload, runs);
      if (result == null) {
        break; // the best found so far still meets the objectives
      }
      if (shortfall(result) == null) {
        meeting = mid;
      } else {
        failing = mid;
      }
    }
    return ShapeAnswer.of(plan(shape.candidate(meeting), runs.get(meeting), space));
  }

  private String budgetReason() {
    return "not searched: the search reached its limit of " + maxEvaluations + " simulated runs";
  }

  /** Runs {@code candidate} once (remembered in {@code runs}); null when the run cap is reached. */
  private FleetResult run(Candidate candidate, Workload workload, Map<Integer, FleetResult> runs) {
    FleetResult known = runs.get(candidate.replicas());
    if (known != null) {
      return known;
    }
    FleetResult result = evaluate(candidate, workload);
    if (result != null) {
      runs.put(candidate.replicas(), result);
      String missing = shortfall(result);
      progress.accept(label(candidate) + ": " + summary(result) + (missing == null ? " - meets the SLOs" : " - "
          + missing));
    }
    return result;
  }

  private FleetResult evaluate(Candidate candidate, Workload workload) {
    if (totals.runs() >= maxEvaluations) {
      return null;
    }
    FleetResult result = evaluator.evaluate(candidate, workload);
    totals = totals.plus(result.simulatedSeconds(), result.wallSeconds());
    return result;
  }

  /** Why {@code result} misses the objectives, as a phrase; null when it meets them all. */
  String shortfall(FleetResult result) {
    long all = result.completed() + result.failed();
    if (result.completed() == 0) {
      return "completes no request";
    }
    double failedShare = (double) result.failed() / all;
    if (failedShare > MAX_FAILED_SHARE) {
      return String.format(Locale.ROOT, "fail %.1f%% of requests (at most %.0f%% may fail)", failedShare * 100,
          MAX_FAILED_SHARE * 100);
    }
    List<String> missed = new ArrayList<>();
    for (Slo slo : slos) {
      if (!slo.met(result)) {
        missed.add(slo.text() + " (measured " + slo.describe(slo.observed(result)) + ")");
      }
    }
    return missed.isEmpty() ? null : "miss " + String.join(", ", missed);
  }

  private Plan plan(Candidate candidate, FleetResult result, SearchSpace space) {
    Double price = prices.of(candidate.gpu());
    Double perHour = price == null ? null : price * candidate.gpus();
    Map<String, Double> margins = new LinkedHashMap<>();
    slos.forEach(slo -> margins.put(slo.text(), slo.margin(result)));
    return new Plan(candidate, result, candidate.gpus(), perHour,
        Plan.costPerMillionTokens(perHour, result.outputTokensPerSecond()), margins, true,
        Extrapolations.of(candidate, space.model()));
  }

  /** Best first: cheapest per hour when priced, else fewest GPUs; then lowest TTFT p90; then a stable order. */
  private Comparator<Plan> ranking() {
    Comparator<Plan> first = prices.priced()
        ? Comparator.comparingDouble((Plan p) -> p.costPerHour()).thenComparingInt(Plan::gpus)
        : Comparator.comparingInt(Plan::gpus);
    return first.thenComparingDouble(p -> ttftP90(p.result()))
        .thenComparing(p -> p.candidate().gpu())
        .thenComparingInt(p -> p.candidate().tensorParallelSize())
        .thenComparing(p -> p.candidate().profile());
  }

  private static double ttftP90(FleetResult r) {
    return Double.isNaN(r.ttft().p90()) ? Double.POSITIVE_INFINITY : r.ttft().p90();
  }

  /**
   * Runs each plan's configuration at {@code factors} times the workload's rate, for a plot of latency against load.
   * Stops early (with fewer points) when the run cap is reached.
   */
  public List<LoadSweep> sweep(List<Plan> plans, Workload workload, List<Double> factors) {
    List<LoadSweep> sweeps = new ArrayList<>();
    for (Plan plan : plans) {
      List<LoadSweep.Point> points = new ArrayList<>();
      for (double factor : factors.stream().sorted().toList()) {
        double rate = workload.rate() * factor;
        FleetResult result = evaluate(plan.candidate(), workload.atRate(rate));
        if (result == null) {
          break;
        }
        progress.accept(label(plan.candidate()) + String.format(Locale.ROOT, " at %.3g req/s: ", rate)
            + summary(result));
        points.add(new LoadSweep.Point(rate, result));
      }
      sweeps.add(new LoadSweep(plan.candidate(), points));
    }
    return sweeps;
  }

  /** {@code h100 TP=2 x3 precise}. */
  public static String label(Candidate c) {
    return c.gpu() + " TP=" + c.tensorParallelSize() + " x" + c.replicas() + " " + c.profile().label();
  }

  private static String summary(FleetResult r) {
    return String.format(Locale.ROOT, "TTFT p90 %.0fms, ITL p90 %.1fms, %.0f output tokens/s, %d failed",
        r.ttft().p90() * 1000, r.itl().p90() * 1000, r.outputTokensPerSecond(), r.failed());
  }

  /** A shape's plan, or why it has none (and whether that is because the replica cap is too few). */
  private record ShapeAnswer(Plan plan, String reason, boolean atCap) {
    static ShapeAnswer of(Plan plan) {
      return new ShapeAnswer(plan, null, false);
    }

    static ShapeAnswer rejected(String reason, boolean atCap) {
      return new ShapeAnswer(null, reason, atCap);
    }
  }

  /**
   * Where each shape's search starts: another profile's answer for the same GPU and size (profiles change latency
   * less than replicas do), else the answer for a smaller size on the same GPU scaled by the GPUs per replica, else 1.
   */
  private static final class StartingPoints {
    private final int maxReplicas;
    private final Map<String, Integer> bySize = new HashMap<>();
    private final Map<String, int[]> lastByGpu = new HashMap<>();

    StartingPoints(int maxReplicas) {
      this.maxReplicas = maxReplicas;
    }

    int of(SearchSpace.Shape shape) {
      Integer same = bySize.get(shape.gpu() + "/" + shape.tensorParallelSize());
      if (same != null) {
        return same;
      }
      int[] smaller = lastByGpu.get(shape.gpu());
      if (smaller == null) {
        return 1;
      }
      long gpus = (long) smaller[0] * smaller[1];
      return (int) Math.min(maxReplicas, Math.max(1, (gpus + shape.tensorParallelSize() - 1)
          / shape.tensorParallelSize()));
    }

    void found(SearchSpace.Shape shape, int replicas) {
      bySize.putIfAbsent(shape.gpu() + "/" + shape.tensorParallelSize(), replicas);
      lastByGpu.put(shape.gpu(), new int[] {shape.tensorParallelSize(), replicas});
    }
  }
}
